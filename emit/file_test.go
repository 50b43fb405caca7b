package emit_test

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/emit"
)

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	require.NoError(t, emit.WriteFile(path, func(w io.Writer) error {
		_, err := io.WriteString(w, "first\n")
		return err
	}))
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "first\n", string(got))

	// A failure half way leaves the old file untouched and no temporary.
	boom := errors.New("boom")
	err = emit.WriteFile(path, func(w io.Writer) error {
		io.WriteString(w, "half")
		return boom
	})
	require.ErrorIs(t, err, boom)
	got, err = os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "first\n", string(got))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1)

	// A folder that does not exist: one error, nothing written.
	err = emit.WriteFile(filepath.Join(dir, "missing", "x.json"), func(io.Writer) error { return nil })
	require.EqualError(t, err, "emit: cannot write "+filepath.Join(dir, "missing", "x.json")+": no such file or directory")
	pe, ok := errors.AsType[*emit.PathError](err)
	require.True(t, ok, "the file's own failure is a *PathError")
	assert.Equal(t, filepath.Join(dir, "missing", "x.json"), pe.Path)
}

// writeString is a WriteFile body that writes s.
func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := io.WriteString(w, s)
		return err
	}
}

// A symbolic link stays a link: its final target is written, atomically,
// beside the target, and a dangling link creates its target.
// SamePath sees one file through links and spellings, existing or not.
func TestSamePath(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.svg")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o644))
	link := filepath.Join(dir, "link.svg")
	require.NoError(t, os.Symlink("a.svg", link))
	dangling := filepath.Join(dir, "dangling.svg")
	require.NoError(t, os.Symlink("new.svg", dangling))
	assert.True(t, emit.SamePath(file, link))
	assert.True(t, emit.SamePath(file, filepath.Join(dir, ".", "a.svg")))
	assert.True(t, emit.SamePath(dangling, filepath.Join(dir, "new.svg")), "a dangling link and its target to be")
	assert.True(t, emit.SamePath(filepath.Join(dir, "x"), filepath.Join(dir, "sub", "..", "x")))
	assert.False(t, emit.SamePath(file, filepath.Join(dir, "b.svg")))
	assert.False(t, emit.SamePath(link, dangling))
	// Nothing yet, through a linked folder: one file to be.
	require.NoError(t, os.Symlink(".", filepath.Join(dir, "here")))
	assert.True(t, emit.SamePath(filepath.Join(dir, "here", "new.txt"), filepath.Join(dir, "new.txt")))
	assert.True(t, emit.SamePath(filepath.Join(dir, "here", "here", "n2.txt"), filepath.Join(dir, "n2.txt")))
	assert.False(t, emit.SamePath(filepath.Join(dir, "here", "n3.txt"), filepath.Join(dir, "n4.txt")))
}

func TestWriteFileSymlink(t *testing.T) {
	dir := t.TempDir()
	targets := filepath.Join(dir, "targets")
	require.NoError(t, os.Mkdir(targets, 0o755))
	target := filepath.Join(targets, "real.txt")
	require.NoError(t, os.WriteFile(target, []byte("old\n"), 0o600))
	link := filepath.Join(dir, "link.txt")
	require.NoError(t, os.Symlink(filepath.Join("targets", "real.txt"), link))
	chain := filepath.Join(dir, "chain.txt")
	require.NoError(t, os.Symlink("link.txt", chain))

	require.NoError(t, emit.WriteFile(chain, writeString("new\n")))
	fi, err := os.Lstat(link)
	require.NoError(t, err)
	assert.Equal(t, os.ModeSymlink, fi.Mode().Type(), "the link stays a link")
	fi, err = os.Lstat(chain)
	require.NoError(t, err)
	assert.Equal(t, os.ModeSymlink, fi.Mode().Type(), "the link stays a link")
	got, err := os.ReadFile(target)
	require.NoError(t, err)
	assert.Equal(t, "new\n", string(got), "the target is written")
	fi, err = os.Stat(target)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), "the target keeps its permissions")
	entries, err := os.ReadDir(targets)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file is left beside the target")

	// A failure leaves the target as it was.
	boom := errors.New("boom")
	require.ErrorIs(t, emit.WriteFile(link, func(w io.Writer) error { io.WriteString(w, "half"); return boom }), boom)
	got, err = os.ReadFile(target)
	require.NoError(t, err)
	assert.Equal(t, "new\n", string(got))

	// A dangling link creates its target where the target's folder exists.
	dangling := filepath.Join(dir, "dangling.txt")
	require.NoError(t, os.Symlink(filepath.Join(targets, "fresh.txt"), dangling))
	require.NoError(t, emit.WriteFile(dangling, writeString("fresh\n")))
	got, err = os.ReadFile(filepath.Join(targets, "fresh.txt"))
	require.NoError(t, err)
	assert.Equal(t, "fresh\n", string(got))
	fi, err = os.Lstat(dangling)
	require.NoError(t, err)
	assert.Equal(t, os.ModeSymlink, fi.Mode().Type())

	// A dangling link into a missing folder names the link, not a temporary.
	nowhere := filepath.Join(dir, "nowhere.txt")
	require.NoError(t, os.Symlink(filepath.Join(dir, "missing", "x.txt"), nowhere))
	err = emit.WriteFile(nowhere, writeString("x"))
	require.Error(t, err)
	assert.NotContains(t, err.Error(), ".tmp")
	_, ok := errors.AsType[*emit.PathError](err)
	assert.True(t, ok)

	// A loop of links is refused.
	loop := filepath.Join(dir, "loop")
	require.NoError(t, os.Symlink("loop", loop))
	err = emit.WriteFile(loop, writeString("x"))
	require.Error(t, err)
	_, ok = errors.AsType[*emit.PathError](err)
	assert.True(t, ok)
}

// A FIFO (like a device) is opened and written directly: it is not replaced
// by a regular file.
func TestWriteFileFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	got := make(chan string, 1)
	go func() {
		data, err := os.ReadFile(fifo)
		if err != nil {
			got <- "read error: " + err.Error()
			return
		}
		got <- string(data)
	}()
	require.NoError(t, emit.WriteFile(fifo, writeString("through the pipe\n")))
	select {
	case s := <-got:
		assert.Equal(t, "through the pipe\n", s)
	case <-time.After(10 * time.Second):
		t.Fatal("nothing came through the FIFO")
	}
	fi, err := os.Lstat(fifo)
	require.NoError(t, err)
	assert.Equal(t, os.ModeNamedPipe, fi.Mode().Type(), "the FIFO is still a FIFO")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1)

	// A failing body never opens the FIFO (nobody reads it here: opening it
	// would block).
	boom := errors.New("boom")
	require.ErrorIs(t, emit.WriteFile(fifo, func(w io.Writer) error { return boom }), boom)

	// A link to a FIFO writes the FIFO.
	link := filepath.Join(dir, "link")
	require.NoError(t, os.Symlink("pipe", link))
	go func() {
		data, _ := os.ReadFile(fifo)
		got <- string(data)
	}()
	require.NoError(t, emit.WriteFile(link, writeString("via the link\n")))
	assert.Equal(t, "via the link\n", <-got)
}

// A directory, a link to one and the empty name are refused with a
// *PathError that names what was given.
func TestWriteFileRefused(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	require.NoError(t, os.Mkdir(sub, 0o755))
	link := filepath.Join(dir, "link")
	require.NoError(t, os.Symlink("sub", link))
	for _, tt := range []struct{ path, want string }{
		{sub, "emit: cannot write " + sub + ": it is a directory: name a file"},
		{link, "emit: cannot write " + link + ": it is a directory: name a file"},
		{"", `emit: cannot write "": the file name is empty`},
	} {
		err := emit.WriteFile(tt.path, writeString("x"))
		require.EqualError(t, err, tt.want)
		_, ok := errors.AsType[*emit.PathError](err)
		assert.True(t, ok)
	}
	entries, err := os.ReadDir(sub)
	require.NoError(t, err)
	assert.Empty(t, entries)
}

// A rename that fails names the path given, never the temporary file.
func TestWriteFileNoTemporaryName(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes into read-only folders")
	}
	dir := t.TempDir()
	ro := filepath.Join(dir, "ro")
	require.NoError(t, os.Mkdir(ro, 0o555))
	path := filepath.Join(ro, "x.txt")
	err := emit.WriteFile(path, writeString("x"))
	require.EqualError(t, err, "emit: cannot write "+path+": its folder "+ro+" is not writable: the file is written whole through a temporary file beside it")
	assert.ErrorIs(t, err, fs.ErrPermission, "the reason behind the line is the system's")
}

// A file this process may not write is refused, as the shell refuses it,
// though replacing it would only need its folder.
func TestWriteFileReadOnlyFile(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root may write any file; TestWriteFileKeepsOwner covers root")
	}
	path := filepath.Join(t.TempDir(), "ro.txt")
	require.NoError(t, os.WriteFile(path, []byte("old\n"), 0o444))
	err := emit.WriteFile(path, writeString("new\n"))
	require.EqualError(t, err, "emit: cannot write "+path+": permission denied")
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "old\n", string(got))
}

// A name as long as a file system takes is written: the temporary file
// beside it takes a short name of its own.
func TestWriteFileLongName(t *testing.T) {
	// 245: the name fits beside the temporary name's dots and .tmp, but
	// not with its random digits too.
	for _, n := range []int{245, 250} {
		dir := t.TempDir()
		path := filepath.Join(dir, strings.Repeat("b", n))
		require.NoError(t, emit.WriteFile(path, writeString("x")), n)
		got, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.Equal(t, "x", string(got))
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		assert.Len(t, entries, 1, "no temporary file left")
	}
}

func TestShellWord(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"r.html", "r.html"},
		{"/usr/share/qflow/tech/osu018/osu018_stdcells.lib", "/usr/share/qflow/tech/osu018/osu018_stdcells.lib"},
		{"1,2", "1,2"},
		{"r8&<b>.html", "'r8&<b>.html'"},
		{"my lib.lib", "'my lib.lib'"},
		{"it's", `'it'\''s'`},
		{"", "''"},
		{"-x", "-x"},
	} {
		assert.Equal(t, tt.want, emit.ShellWord(tt.in), tt.in)
	}
}

// A panic in the writing function leaves no temporary file behind, and
// the file is untouched.
func TestWriteFilePanic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	require.NoError(t, os.WriteFile(path, []byte("old"), 0o644))
	assert.Panics(t, func() {
		_ = emit.WriteFile(path, func(w io.Writer) error {
			_, _ = w.Write([]byte("half"))
			panic("bug")
		})
	})
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1, "only the file itself")
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "old", string(got))
}

// WriteFiles writes every file or none: a failing writer, or a file that
// cannot be written, leaves the others untouched and no temporary file.
func TestWriteFiles(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.v"), filepath.Join(dir, "b.v")
	require.NoError(t, emit.WriteFiles(emit.File{Path: a, Write: writeString("a1\n")}, emit.File{Path: b, Write: writeString("b1\n")}))
	boom := errors.New("boom")
	tests := []struct {
		name  string
		files []emit.File
		err   string
	}{
		{"the second writer fails", []emit.File{{a, writeString("a2\n")}, {b, func(io.Writer) error { return boom }}}, "boom"},
		{"the first writer fails", []emit.File{{a, func(io.Writer) error { return boom }}, {b, writeString("b2\n")}}, "boom"},
		{"the second is a folder", []emit.File{{a, writeString("a2\n")}, {dir, writeString("x")}}, "emit: cannot write " + dir + ": it is a directory"},
		{"the second's folder is missing", []emit.File{{a, writeString("a2\n")}, {filepath.Join(dir, "no", "b.v"), writeString("x")}},
			"emit: cannot write " + filepath.Join(dir, "no", "b.v") + ": no such file or directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := emit.WriteFiles(tt.files...)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.err)
			for path, want := range map[string]string{a: "a1\n", b: "b1\n"} {
				got, err := os.ReadFile(path)
				require.NoError(t, err)
				assert.Equal(t, want, string(got), path)
			}
			entries, err := os.ReadDir(dir)
			require.NoError(t, err)
			assert.Len(t, entries, 2, "no temporary file is left")
		})
	}
	// A path that cannot be written is refused before any file is
	// written, even into a temporary file that would be removed.
	written := false
	err := emit.WriteFiles(emit.File{Path: a, Write: func(w io.Writer) error { written = true; return nil }},
		emit.File{Path: filepath.Join(dir, "no", "b.v"), Write: writeString("x")})
	require.Error(t, err)
	assert.False(t, written, "the first file was written before the second's path was refused")
	require.NoError(t, emit.WriteFiles(emit.File{Path: a, Write: writeString("a3\n")}, emit.File{Path: b, Write: writeString("b3\n")}))
	got, err := os.ReadFile(b)
	require.NoError(t, err)
	assert.Equal(t, "b3\n", string(got))
}

func TestCheckWritable(t *testing.T) {
	dir := t.TempDir()
	keep := filepath.Join(dir, "keep.txt")
	require.NoError(t, os.WriteFile(keep, []byte("KEEP\n"), 0o644))
	tests := []struct {
		path string
		want error
	}{
		{keep, nil},
		{filepath.Join(dir, "new.txt"), nil},
		{"", emit.ErrEmptyName},
		{dir, emit.ErrIsDirectory},
		{filepath.Join(dir, "nodir", "t.txt"), fs.ErrNotExist},
		{filepath.Join(keep, "t.txt"), nil},
	}
	for _, tt := range tests {
		err := emit.CheckWritable(tt.path)
		if tt.path == filepath.Join(keep, "t.txt") {
			require.Error(t, err, "a file as the folder")
			continue
		}
		if tt.want == nil {
			require.NoError(t, err, tt.path)
			continue
		}
		var pe *emit.PathError
		require.ErrorAs(t, err, &pe, tt.path)
		require.ErrorIs(t, err, tt.want, tt.path)
	}
	got, err := os.ReadFile(keep)
	require.NoError(t, err)
	require.Equal(t, "KEEP\n", string(got))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1, "nothing left behind")
}

func TestInFolder(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.Symlink(".", filepath.Join(dir, "here")))
	work := filepath.Join(dir, "work")
	for _, tt := range []struct {
		path string
		in   bool
	}{
		{work, true},
		{filepath.Join(work, "a", "b.v"), true},
		{filepath.Join(dir, "here", "work", "x"), true},
		{filepath.Join(dir, "work", "..", "x"), false},
		{filepath.Join(dir, "workx"), false},
		{filepath.Join(dir, "x"), false},
		{dir, false}, // the folder above
	} {
		assert.Equal(t, tt.in, emit.InFolder(tt.path, work), tt.path)
	}
	assert.True(t, emit.InFolder(filepath.Join(work, "y"), filepath.Join(dir, "here", "work")), "the folder through a link")
}

// TestWriteFileUmask: a new file gets 0666 less the umask, as the shell's
// > gives it; WriteFile had made it 0644 whatever the umask (readable by
// all under umask 077). Not parallel: the umask is the process's.
func TestWriteFileUmask(t *testing.T) {
	for _, tc := range []struct {
		umask int
		want  os.FileMode
	}{{0o077, 0o600}, {0o027, 0o640}, {0, 0o666}, {0o022, 0o644}} {
		path := filepath.Join(t.TempDir(), "out.txt")
		old := syscall.Umask(tc.umask)
		err := emit.WriteFile(path, func(w io.Writer) error { _, err := io.WriteString(w, "x\n"); return err })
		syscall.Umask(old)
		require.NoError(t, err)
		st, err := os.Stat(path)
		require.NoError(t, err)
		assert.Equal(t, tc.want, st.Mode().Perm(), "umask %#o", tc.umask)
	}
}

// TestWriteFileDescriptor: a path that names an open descriptor
// (/dev/stdout, /dev/fd/N, /proc/self/fd/N, or a link to one) is written
// through it, at its offset, as a shell's redirection of it is: the file
// behind it had been replaced whole, an append redirection's earlier
// lines lost, and a pipe behind it refused as a file not there.
func TestWriteFileDescriptor(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("no /proc/self/fd")
	}
	dir := t.TempDir()
	logFile := filepath.Join(dir, "app.log")
	require.NoError(t, os.WriteFile(logFile, []byte("FIRST\n"), 0o644))
	f, err := os.OpenFile(logFile, os.O_WRONLY|os.O_APPEND, 0)
	require.NoError(t, err)
	defer f.Close()
	fd := f.Fd()
	link := filepath.Join(dir, "out")
	require.NoError(t, os.Symlink(fmt.Sprintf("/proc/self/fd/%d", fd), link))
	for i, path := range []string{fmt.Sprintf("/proc/self/fd/%d", fd), fmt.Sprintf("/dev/fd/%d", fd), link} {
		require.NoError(t, emit.CheckWritable(path), path)
		require.NoError(t, emit.WriteFile(path, func(w io.Writer) error {
			_, err := fmt.Fprintf(w, "doc %d\n", i)
			return err
		}), path)
	}
	_, err = f.WriteString("LAST\n")
	require.NoError(t, err)
	b, err := os.ReadFile(logFile)
	require.NoError(t, err)
	assert.Equal(t, "FIRST\ndoc 0\ndoc 1\ndoc 2\nLAST\n", string(b))

	// A pipe behind the descriptor.
	r, w, err := os.Pipe()
	require.NoError(t, err)
	defer r.Close()
	pipe := fmt.Sprintf("/dev/fd/%d", w.Fd())
	require.NoError(t, emit.WriteFile(pipe, func(out io.Writer) error {
		_, err := io.WriteString(out, "through the pipe\n")
		return err
	}))
	require.NoError(t, w.Close())
	got, err := io.ReadAll(r)
	require.NoError(t, err)
	assert.Equal(t, "through the pipe\n", string(got))

	// A descriptor not open is named so.
	err = emit.CheckWritable("/dev/fd/987")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not an open file descriptor")
}

// TestInFolderRelative: a folder given relative to the working directory,
// existing or through a link, holds the files under it: a relative
// --workdir that existed let -o write into it.
func TestInFolderRelative(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	require.NoError(t, os.Mkdir("wd", 0o755))
	require.NoError(t, os.Symlink("wd", "link"))
	assert.True(t, emit.InFolder("wd/out.txt", "wd"))
	assert.True(t, emit.InFolder(filepath.Join(dir, "wd", "out.txt"), "wd"))
	assert.True(t, emit.InFolder("wd/out.txt", "link"))
	assert.True(t, emit.InFolder("link/out.txt", "./wd"))
	assert.False(t, emit.InFolder("out.txt", "wd"))
}

// A relative link in a folder reached through another link is read from
// the link's real folder, as the system reads it: L/f, a link to ../t.txt
// in a/b, with L a link to a/b, is a/t.txt. It had written ./t.txt, and
// told the two names apart.
func TestWriteFileLinkInLinkedFolder(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755))
	require.NoError(t, os.Symlink(filepath.Join("a", "b"), filepath.Join(dir, "L")))
	require.NoError(t, os.Symlink(filepath.Join("..", "t.txt"), filepath.Join(dir, "a", "b", "f")))
	target := filepath.Join(dir, "a", "t.txt")
	require.NoError(t, os.WriteFile(target, []byte("old\n"), 0o644))
	link := filepath.Join(dir, "L", "f")
	require.NoError(t, emit.WriteFile(link, func(w io.Writer) error {
		_, err := io.WriteString(w, "new\n")
		return err
	}))
	got, err := os.ReadFile(target)
	require.NoError(t, err)
	assert.Equal(t, "new\n", string(got))
	assert.NoFileExists(t, filepath.Join(dir, "t.txt"))
	assert.True(t, emit.SamePath(link, target))
	fi, err := os.Lstat(filepath.Join(dir, "a", "b", "f"))
	require.NoError(t, err)
	assert.Equal(t, fs.ModeSymlink, fi.Mode().Type(), "the link stays a link")
}
