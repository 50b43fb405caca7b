package liberty

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// gzipMagic opens every gzip stream.
var gzipMagic = []byte{0x1f, 0x8b}

// MaxSize is the largest Liberty file read, as text (decompressed): the
// open libraries' files are tens of MB (ASAP7's five, power tables and
// all, 46 MB), and parsing takes several times the text's size.
const MaxSize = 1 << 30

// maxSize is MaxSize, which tests lower.
var maxSize int64 = MaxSize

// ReadFile returns the text of the Liberty file at path, decompressed when
// the file is gzip (known by its first bytes, whatever its name). A file
// whose name ends in .gz that is not gzip, or whose gzip stream is
// damaged, is an error naming it; so is one larger than MaxSize, a FIFO
// read until it passes it.
func ReadFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	tooLarge := fmt.Errorf("liberty: %s is larger than the %s allowed: allowed a Liberty file of up to %s", path, mib(maxSize), mib(maxSize))
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > maxSize {
		return nil, tooLarge
	}
	src, err := io.ReadAll(io.LimitReader(f, maxSize+1))
	if err != nil {
		return nil, err // the file's *os.PathError
	}
	if int64(len(src)) > maxSize {
		return nil, tooLarge
	}
	return Decompress(path, src)
}

// mib writes bytes in MiB, or GiB where whole.
func mib(bytes int64) string {
	if bytes >= 1<<30 && bytes%(1<<30) == 0 {
		return strconv.FormatInt(bytes>>30, 10) + " GiB"
	}
	return strconv.FormatInt(bytes>>20, 10) + " MiB"
}

// Decompress returns src, the contents of the file name, decompressed when
// it is gzip; see ReadFile.
func Decompress(name string, src []byte) ([]byte, error) {
	if !bytes.HasPrefix(src, gzipMagic) {
		if strings.HasSuffix(strings.ToLower(name), ".gz") {
			return nil, fmt.Errorf("liberty: %s is named .gz but is not gzip: allowed a gzip file, or a plain Liberty file named without .gz", name)
		}
		return src, nil
	}
	z, err := gzip.NewReader(bytes.NewReader(src))
	if err != nil {
		return nil, fmt.Errorf("liberty: %s is not a whole gzip file: %w", name, err)
	}
	out, err := io.ReadAll(io.LimitReader(z, maxSize+1))
	if err == nil && int64(len(out)) > maxSize {
		return nil, fmt.Errorf("liberty: %s inflates to text larger than the %s allowed: allowed a Liberty file of up to %s", name, mib(maxSize), mib(maxSize))
	}
	if err != nil {
		return nil, fmt.Errorf("liberty: %s is not a whole gzip file: %w", name, err)
	}
	return out, nil
}

// Source is the text of one Liberty file and the name errors give it.
type Source struct {
	// Name names the file in errors, as its path.
	Name string
	// Text is the file's text, decompressed.
	Text []byte
}

// Library is one library read from one or more Liberty files that make it
// (ASAP7 is five: SIMPLE, AO, OA, INVBUF, SEQ): their cells, their units,
// which agree, and their templates, of which those of one name are
// identical. Write gives it to Yosys and OpenSTA as one file.
type Library struct {
	files []libFile
	cells map[string]Cell
	where map[string]int // file of each cell, by name
	units Units
}

// libFile is one file of a Library: its text, its root and its library
// group (nil in a file of one library without one).
type libFile struct {
	name string
	src  []byte
	lib  *Group
}

// UnitNames are the units the files of a Library must agree on, in the
// order errors name them.
var UnitNames = []string{"time_unit", "capacitive_load_unit", "voltage_unit", "current_unit", "pulling_resistance_unit", "leakage_power_unit"}

// Units are a library's units as its files state them, by attribute name
// (UnitNames): "1ps", "1,ff"; a unit a file does not state is "".
type Units map[string]string

// TimeNS returns the time unit in nanoseconds: 1 for "1ns", 0.001 for
// "1ps", and 1 for a library that states none (Liberty's default); ok is
// false for a unit it cannot read.
func (u Units) TimeNS() (ns float64, ok bool) {
	s := u["time_unit"]
	if s == "" {
		return 1, true
	}
	v, unit, ok := quantity(s)
	if !ok {
		return 0, false
	}
	scale, ok := map[string]float64{"s": 1e9, "ms": 1e6, "us": 1e3, "ns": 1, "ps": 1e-3, "fs": 1e-6}[unit]
	return v * scale, ok
}

// CapacitanceFF returns the capacitive load unit in femtofarads: 1 for
// "1,ff", 1000 for "1,pf"; ok is false for a library that states none or
// a unit it cannot read.
func (u Units) CapacitanceFF() (ff float64, ok bool) {
	v, unit, ok := quantity(u["capacitive_load_unit"])
	if !ok {
		return 0, false
	}
	scale, ok := map[string]float64{"ff": 1, "pf": 1e3, "nf": 1e6}[unit]
	return v * scale, ok
}

// quantity reads "1ps", "1,ff" or "1.0 pf" as a number and a unit in
// lower case.
func quantity(s string) (v float64, unit string, ok bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	// The number ends where a letter other than an exponent starts: "1e-3ps".
	i := 0
	for i < len(s) && (strings.IndexByte("0123456789.+-", s[i]) >= 0 || s[i] == 'e' && i+1 < len(s) && strings.IndexByte("0123456789+-", s[i+1]) >= 0) {
		i++
	}
	v, err := strconv.ParseFloat(s[:i], 64)
	if err != nil {
		return 0, "", false
	}
	unit = strings.Trim(s[i:], " ,\t")
	return v, unit, unit != ""
}

// sameUnit reports whether two statements of a unit are the same unit:
// "1ps" and "1.0ps", "1,ff" and "1.000,FF".
func sameUnit(a, b string) bool {
	if a == b {
		return true
	}
	va, ua, oka := quantity(a)
	vb, ub, okb := quantity(b)
	return oka && okb && va == vb && ua == ub
}

// NewLibrary reads the files of one library. Each file must hold one
// library group, except a library of one file, which may hold anything
// but a library group it does not close, as a file cut short does (Parse
// reads what it can, and Yosys and OpenSTA say whether it is well formed;
// Yosys's reader can take all the memory there is on a file cut inside a
// quoted value). The files must agree on every unit of UnitNames (a unit one file
// states and another does not disagrees), give templates (groups of the
// library whose kind ends in _template, such as lu_table_template) of one
// name identically, and give each cell once, in one file (ABC stops on a
// cell given twice);
// an error names the two files and what they disagree on.
func NewLibrary(files ...Source) (*Library, error) {
	if len(files) == 0 {
		return nil, errors.New("liberty: no files: allowed one Liberty file or more")
	}
	l := &Library{cells: map[string]Cell{}, where: map[string]int{}}
	templates := map[[2]string]int{} // file of each template, by kind and name
	for i, f := range files {
		root := Parse(f.Text)
		var lib *Group
		for _, g := range root.Groups {
			if g.Kind == "library" {
				if lib != nil {
					return nil, fmt.Errorf("liberty: %s holds more than one library group: allowed one library in each file", f.Name)
				}
				lib = g
			}
		}
		switch {
		case len(files) > 1 && (lib == nil || !lib.closed):
			return nil, fmt.Errorf("liberty: %s holds no whole library group: allowed Liberty files, each of one library (…) { … }", f.Name)
		case lib != nil && !lib.closed:
			return nil, fmt.Errorf("liberty: %s is cut short, its library group not closed: allowed a whole Liberty file", f.Name)
		}
		l.files = append(l.files, libFile{name: f.Name, src: f.Text, lib: lib})
		if lib == nil {
			maps.Copy(l.cells, root.Cells())
			continue
		}
		units := libUnits(lib)
		if i == 0 {
			l.units = units
		}
		for _, u := range UnitNames {
			if !sameUnit(units[u], l.units[u]) {
				return nil, fmt.Errorf("liberty: %s and %s disagree on %s: %s in %s, %s in %s: allowed files of one library, whose units agree",
					files[0].Name, f.Name, u, stated(l.units[u]), files[0].Name, stated(units[u]), f.Name)
			}
		}
		for _, g := range lib.Groups {
			switch {
			case g.Kind == "cell" && len(g.Args) == 1:
				name := g.Args[0]
				if j, ok := l.where[name]; ok && j != i {
					return nil, fmt.Errorf("liberty: %s and %s both give cell %s: allowed files of one library, each cell in one", files[j].Name, f.Name, name)
				} else if ok {
					// ABC stops on it.
					return nil, fmt.Errorf("liberty: %s gives cell %s twice: allowed each cell once", f.Name, name)
				}
				l.where[name] = i
				l.cells[name] = cell(g)
			case strings.HasSuffix(g.Kind, "_template") && len(g.Args) == 1:
				key := [2]string{g.Kind, g.Args[0]}
				j, ok := templates[key]
				if !ok {
					templates[key] = i
					continue
				}
				if !sameGroup(g, l.files[j].group(key)) {
					return nil, fmt.Errorf("liberty: %s and %s give %s %s differently: allowed files of one library, whose templates of one name are identical",
						files[j].Name, f.Name, g.Kind, g.Args[0])
				}
			}
		}
	}
	return l, nil
}

// stated quotes a unit, or says none was stated.
func stated(u string) string {
	if u == "" {
		return "none"
	}
	return strconv.Quote(u)
}

// libUnits reads the units of a library group.
func libUnits(lib *Group) Units {
	u := Units{}
	for _, name := range UnitNames {
		if v, ok := lib.Attrs[name]; ok {
			u[name] = v
		} else if args := lib.Values(name); args != nil {
			u[name] = strings.Join(args, ",")
		} else {
			u[name] = ""
		}
	}
	return u
}

// group returns the first group of f's library of the kind and name key.
func (f libFile) group(key [2]string) *Group {
	for _, g := range f.lib.Groups {
		if g.Kind == key[0] && len(g.Args) == 1 && g.Args[0] == key[1] {
			return g
		}
	}
	return nil
}

// sameGroup reports whether two groups say the same: kind, arguments,
// attributes and groups inside, wherever they stand in their files.
func sameGroup(a, b *Group) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Kind != b.Kind || !slices.Equal(a.Args, b.Args) || !maps.Equal(a.Attrs, b.Attrs) ||
		!slices.EqualFunc(a.Complex, b.Complex, func(x, y Attribute) bool { return x.Name == y.Name && slices.Equal(x.Args, y.Args) }) ||
		len(a.Groups) != len(b.Groups) {
		return false
	}
	for i := range a.Groups {
		if !sameGroup(a.Groups[i], b.Groups[i]) {
			return false
		}
	}
	return true
}

// Name returns the name of the library, as its first file's library group
// gives it (library (NAME)), or "" where it gives none.
func (l *Library) Name() string {
	if lib := l.files[0].lib; lib != nil && len(lib.Args) > 0 {
		return lib.Args[0]
	}
	return ""
}

// Groups returns the library groups of the library's files, in order: a
// file without one gives none.
func (l *Library) Groups() []*Group {
	var gs []*Group
	for _, f := range l.files {
		if f.lib != nil {
			gs = append(gs, f.lib)
		}
	}
	return gs
}

// Names returns the names the library's files were given, in order.
func (l *Library) Names() []string {
	names := make([]string, len(l.files))
	for i, f := range l.files {
		names[i] = f.name
	}
	return names
}

// Units returns the library's units, as its first file states them.
func (l *Library) Units() Units {
	return maps.Clone(l.units)
}

// Cells returns every cell of the library, by name, as the package
// function Cells reads them.
func (l *Library) Cells() map[string]Cell {
	return maps.Clone(l.cells)
}

// CellGroup returns the group of the named cell, nil where the library has
// no such cell: its pins and their timing tables, in the library's units.
func (l *Library) CellGroup(name string) *Group {
	i, ok := l.where[name]
	if !ok {
		return nil
	}
	for _, g := range l.files[i].lib.Groups {
		if g.Kind == "cell" && len(g.Args) == 1 && g.Args[0] == name {
			return g
		}
	}
	return nil
}

// powerGroups are the groups Write leaves out: the power tables no tool of
// the flow reads, most of a large library's text.
var powerGroups = map[string]bool{"internal_power": true, "leakage_power": true}

// Write writes the library as one plain Liberty file that Yosys and
// OpenSTA read: the first file's library group up to its first cell
// (its name, units, templates, operating conditions and the rest), the
// groups other than cells of the later files whose kind and name the
// earlier ones lack (their templates), then every cell of every file, in
// the files' order, and the closing }. Every group is copied as its file
// writes it, but for the power groups inside cells (internal_power,
// leakage_power), which are left out, and for the cells dontUse names
// (nil names none), which get dont_use : true ; as their first attribute.
// A library of one file without a whole library group (none, or one cut
// short) is written as it is.
func (l *Library) Write(w io.Writer, dontUse func(cell string) bool) error {
	return l.WriteCells(w, dontUse, nil)
}

// WriteCells writes the library as Write does, with only the cells keep
// names (nil names all): what a tool that times a netlist of those cells
// reads of it, in a fraction of the time. A library of one file without a
// whole library group is written as it is.
func (l *Library) WriteCells(w io.Writer, dontUse, keep func(cell string) bool) error {
	bw := &errWriter{w: w}
	first := l.files[0]
	if first.lib == nil || !first.lib.closed {
		// One file, not a whole library: the tools say what is wrong.
		bw.write(first.src)
		return bw.err
	}
	lib := first.lib
	head := lib.end - 1 // the library's }
	for _, g := range lib.Groups {
		if g.Kind == "cell" {
			head = g.start
			break
		}
	}
	bw.write(first.src[lib.start:head])
	have := map[[2]string]bool{}
	for _, f := range l.files {
		for _, g := range f.lib.Groups {
			if g.Kind == "cell" {
				continue
			}
			key := [2]string{g.Kind, strings.Join(g.Args, ",")}
			if f.lib == lib && g.start < head {
				have[key] = true
				continue
			}
			if have[key] {
				continue
			}
			have[key] = true
			bw.write([]byte("\n  "))
			bw.write(f.src[g.start:g.end])
			bw.write([]byte("\n"))
		}
	}
	for _, f := range l.files {
		for _, g := range f.lib.Groups {
			if g.Kind != "cell" || keep != nil && (len(g.Args) != 1 || !keep(g.Args[0])) {
				continue
			}
			bw.write([]byte("\n  "))
			writeCell(bw, f.src, g, dontUse != nil && len(g.Args) == 1 && dontUse(g.Args[0]))
			bw.write([]byte("\n"))
		}
	}
	bw.write([]byte("\n}\n"))
	return bw.err
}

// writeCell copies the cell group g, closed, from src without its power
// groups, with dont_use : true ; first when dont is set.
func writeCell(w *errWriter, src []byte, g *Group, dont bool) {
	at := g.start
	if dont {
		w.write(src[at:g.open])
		w.write([]byte("\n    dont_use : true ;"))
		at = g.open
	}
	var cut func(*Group)
	cut = func(p *Group) {
		for _, c := range p.Groups {
			if powerGroups[c.Kind] {
				w.write(src[at:c.start])
				at = c.end
				continue
			}
			cut(c)
		}
	}
	cut(g)
	w.write(src[at:g.end])
}

// errWriter keeps the first error of its writes.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) write(p []byte) {
	if e.err == nil {
		_, e.err = e.w.Write(p)
	}
}

// IsLibertyName reports whether name is that of a Liberty file a folder of
// a library holds: it ends in .lib or .lib.gz, in any case.
func IsLibertyName(name string) bool {
	n := strings.ToLower(filepath.Base(name))
	return strings.HasSuffix(n, ".lib") || strings.HasSuffix(n, ".lib.gz")
}
