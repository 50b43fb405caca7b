package pdk

import (
	"bufio"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/prefixgen/prefixgen/internal/bounded"
	"github.com/prefixgen/prefixgen/internal/cleanup"
	"github.com/prefixgen/prefixgen/internal/suggest"
	"github.com/prefixgen/prefixgen/internal/toolrun"
	"github.com/prefixgen/prefixgen/liberty"
	"github.com/prefixgen/prefixgen/network"
)

// Default names the library used when a spec is empty: OSU 0.18 µm.
const Default = "osu018"

// Debian maps the names of the libraries Debian ships (the OSU standard
// cells of packages qflow-tech-osu018 and qflow-tech-osu035) to their
// files.
var Debian = map[string]string{
	"osu018": "/usr/share/qflow/tech/osu018/osu018_stdcells.lib",
	"osu035": "/usr/share/qflow/tech/osu035/osu035_stdcells.lib",
}

// carried are the libraries the project carries, by name: their files
// under this package's folder, in the order they are merged (the first
// file's header heads the merged file).
var carried = map[string][]string{
	"sky130hd": {"sky130hd/sky130hd_tt.lib.gz"},
	"asap7": {
		"asap7/asap7sc7p5t_SIMPLE_RVT_TT_nldm_211120.lib.gz",
		"asap7/asap7sc7p5t_AO_RVT_TT_nldm_211120.lib.gz",
		"asap7/asap7sc7p5t_OA_RVT_TT_nldm_211120.lib.gz",
		"asap7/asap7sc7p5t_INVBUF_RVT_TT_nldm_220122.lib.gz",
		"asap7/asap7sc7p5t_SEQ_RVT_TT_nldm_220123.lib.gz",
	},
}

//go:embed sky130hd/*.lib.gz asap7/*.lib.gz
var files embed.FS

// Names lists the named libraries, in the order help texts name them.
var Names = []string{"osu018", "osu035", "sky130hd", "asap7"}

// notCarried maps the platforms whose record prefixgen keeps but whose
// library it does not carry to the file their users give instead.
var notCarried = map[string]string{
	"nangate45": "nangate45_typ.lib.gz, as OpenSTA and OpenROAD ship it",
}

// allowed is what an error about a spec says is allowed.
const allowed = "allowed osu018, osu035, sky130hd, asap7, a Liberty file (.lib or .lib.gz), files separated by commas, or a folder of them"

// Library is a library for the flow, as a spec names it: its cells, with
// the cells not to use marked, its platform's record, and the one plain
// Liberty file that Yosys and OpenSTA read.
type Library struct {
	// Name names the library in results: its name where it has one
	// (sky130hd, asap7, osu018, osu035), as --liberty and the adder
	// document name it, or the spec as given.
	Name string
	// Files are the files the library is read from: paths, or for a
	// library the project carries, its files under physical/pdk.
	Files []string
	// Record is the record of the library's platform (RecordFor), nil for
	// a library of no platform known. A cell it names (a driver, tie or
	// buffer cell) that the library lacks is left out of it, and so is a
	// tie or buffer cell the dont-use globs given to Open name: the flows
	// would place it.
	Record *Record
	// DontUse are the globs of the cells not to use: the record's, then
	// those Open was given.
	DontUse []string

	lib   *liberty.Library
	key   string // the files, for the cache of written files
	plain string // the file the tools read as it is, or ""
	cells map[string]liberty.Cell
}

// Cells returns the library's cells by name; a cell DontUse names is
// marked DontUse.
func (l *Library) Cells() map[string]liberty.Cell {
	return maps.Clone(l.cells)
}

// Liberty returns the library as its files give it, without the dont-use
// marks of DontUse: its cells' groups, with their timing tables, and its
// units.
func (l *Library) Liberty() *liberty.Library {
	return l.lib
}

// IsDontUse reports whether DontUse names the cell.
func (l *Library) IsDontUse(cell string) bool {
	return matchAny(l.DontUse, cell)
}

func matchAny(globs []string, name string) bool {
	for _, g := range globs {
		if ok, _ := path.Match(g, name); ok {
			return true
		}
	}
	return false
}

// toolTimeUnits are the time units the outside tools read as written,
// Liberty's own: ABC takes any other for 1ns, and OpenSTA reads "1000ps"
// as 1ps.
var toolTimeUnits = []string{"1ps", "10ps", "100ps", "1ns"}

// checkUnits returns an error naming a unit the outside tools would read
// otherwise than it states: a time_unit not among toolTimeUnits, or a
// capacitive_load_unit whose unit is not ff or pf in lower case (ABC
// reads no other, and stops on "FF"), or whose size is not a positive
// number (OpenSTA then times nothing, or crashes). A unit not stated is Liberty's
// default, and is read alike by all.
func checkUnits(u liberty.Units) error {
	if t := u["time_unit"]; t != "" && !slices.Contains(toolTimeUnits, strings.TrimSpace(t)) {
		return fmt.Errorf("time_unit %s not allowed: allowed %s or %s, Liberty's time units", network.Quote(t), strings.Join(toolTimeUnits[:len(toolTimeUnits)-1], ", "), toolTimeUnits[len(toolTimeUnits)-1])
	}
	if c := u["capacitive_load_unit"]; c != "" {
		size, unit, ok := strings.Cut(c, ",")
		v, err := strconv.ParseFloat(strings.TrimSpace(size), 64)
		if unit = strings.TrimSpace(unit); !ok || unit != "ff" && unit != "pf" || err != nil || !(v > 0) || math.IsInf(v, 0) {
			return fmt.Errorf("capacitive_load_unit %s not allowed: allowed a positive number and ff or pf, in lower case, as (1,ff)", network.Quote(c))
		}
	}
	return nil
}

// Open returns the library spec names: one of Names ("" is Default), the
// path of a Liberty file (plain or gzip), paths separated by commas (the
// files of one library, as ASAP7's five), or a folder (every *.lib and
// *.lib.gz in it, in the order of their names). dontUse adds globs of
// cells not to use to the record's (each element may hold several,
// separated by spaces, as DONT_USE_CELLS does). A library is read once per
// process: Open again of the same files, unchanged (the same size and
// modification time), reads nothing. Every error is bad input: a file that
// cannot be read, a file named .gz that is not gzip, files that disagree
// on units or templates, a cell whose area is no number of 0 or more, a
// glob that is not one, a dont-use list that
// leaves no cell for a basic function (an inverter, a buffer, NAND2, NOR2,
// AND2, OR2, XOR2 or XNOR2, a D flip-flop) the library has, or an unknown
// name, with the names likely meant.
func Open(spec string, dontUse []string) (*Library, error) {
	var globs []string
	for _, d := range dontUse {
		for _, g := range strings.Fields(d) {
			if _, err := path.Match(g, ""); err != nil {
				return nil, fmt.Errorf("pdk: dont-use pattern %s: a [ without its ] or a \\ at the end: allowed globs of cell names, * and ? as wildcards", network.Quote(g))
			}
			globs = append(globs, g)
		}
	}
	if spec == "" {
		spec = Default
	}
	l := &Library{Name: spec}
	var err error
	switch {
	case carried[spec] != nil:
		l.Files = carried[spec]
		l.key = "carried:" + spec
		l.lib, err = cached(l.key, func() (*liberty.Library, bool, error) { return readCarried(spec) })
	case Debian[spec] != "":
		// Named as --liberty names it, as the carried libraries are.
		l.Files = []string{Debian[spec]}
		l.lib, l.key, err = readFiles(l.Files, &l.plain)
	default:
		if l.Files, err = specFiles(spec); err != nil {
			return nil, err
		}
		l.lib, l.key, err = readFiles(l.Files, &l.plain)
	}
	if err != nil {
		return nil, err
	}
	if err := checkUnits(l.lib.Units()); err != nil {
		return nil, fmt.Errorf("pdk: %s: %v", l.what(spec), err)
	}
	l.cells = l.lib.Cells()
	if len(l.cells) == 0 {
		// An empty file, or text that is not Liberty: Yosys crashes on
		// some of them, so they end here.
		verb := " holds"
		if len(l.Files) > 1 {
			verb = " hold"
		}
		return nil, fmt.Errorf("pdk: %s%s no cells: allowed a Liberty library of cells, library (NAME) { cell (NAME) { … } … }", l.what(spec), verb)
	}
	for _, name := range slices.Sorted(maps.Keys(l.cells)) {
		// The tools would read a negative area as written, and stat
		// would sum it.
		if bad := l.cells[name].BadArea; bad != "" {
			return nil, fmt.Errorf("pdk: %s: cell %s has area %s: allowed a number of 0 or more, or no area", l.what(spec), network.Cut(name), network.Quote(bad))
		}
	}
	rec := RecordFor(l.lib.Name())
	if rec != nil {
		l.DontUse = slices.Clone(rec.DontUse)
	}
	l.DontUse = append(l.DontUse, globs...)
	if rec != nil {
		// The driver cell is ABC's model of what drives the inputs,
		// never instantiated; the tie and buffer cells are placed in
		// the netlist, and so must not be cells the user said not to
		// use. A file's own dont_use mark does not count: Nangate45
		// marks its tie cells so, against the resizer, and
		// OpenROAD-flow-scripts places them all the same.
		has := func(c string) bool { _, ok := l.cells[c]; return ok }
		usable := func(c string) bool { return has(c) && !matchAny(globs, c) }
		if !has(rec.DriverCell) {
			rec.DriverCell, rec.LoadFF = "", 0
		}
		if !usable(rec.TieHigh.Cell) || !usable(rec.TieLow.Cell) {
			rec.TieHigh, rec.TieLow = CellPin{}, CellPin{}
		}
		if !usable(rec.Buffer.Cell) {
			rec.Buffer = Buffer{}
		}
		l.Record = rec
	}
	marked := false
	for name, c := range l.cells {
		if !c.DontUse && l.IsDontUse(name) {
			c.DontUse, marked = true, true
			l.cells[name] = c
		}
	}
	if marked {
		l.plain = ""
	}
	if err := checkBasic(l.Name, l.lib.Cells(), l.IsDontUse, l.DontUse); err != nil {
		return nil, err
	}
	return l, nil
}

// specFiles returns the files a spec that names no library names.
func specFiles(spec string) ([]string, error) {
	st, err := os.Stat(spec)
	switch {
	case err == nil && st.IsDir():
		entries, err := os.ReadDir(spec)
		if err != nil {
			return nil, fmt.Errorf("pdk: Liberty folder %s cannot be read: %v (%s)", spec, unwrapPath(err), allowed)
		}
		var names []string
		for _, e := range entries {
			if !e.IsDir() && liberty.IsLibertyName(e.Name()) {
				names = append(names, filepath.Join(spec, e.Name()))
			}
		}
		if len(names) == 0 {
			return nil, fmt.Errorf("pdk: folder %s holds no Liberty file (*.lib or *.lib.gz): %s", spec, allowed)
		}
		return names, nil
	case err == nil:
		return []string{spec}, nil
	case strings.Contains(spec, ","):
		var names []string
		for _, f := range strings.Split(spec, ",") {
			if f == "" {
				return nil, fmt.Errorf("pdk: --liberty %q names an empty file between commas: %s", spec, allowed)
			}
			st, err := os.Stat(f)
			if err != nil && isLibraryName(f) {
				return nil, fmt.Errorf("pdk: --liberty %q lists the library %s with others: a library by name is one alone, files by path may be several: %s", spec, f, allowed)
			}
			if err != nil || st.IsDir() {
				return nil, notFile(f, err)
			}
			names = append(names, f)
		}
		return names, nil
	case !strings.ContainsAny(spec, "/.") && spec != "":
		if file, ok := notCarried[strings.ToLower(spec)]; ok {
			return nil, fmt.Errorf("pdk: library %s is not carried with prefixgen: give its Liberty file (%s), whose platform record prefixgen applies: %s", network.Quote(spec), file, allowed)
		}
		var meant string
		if s := suggest.Closest(spec, Names); s != "" {
			meant = " (did you mean " + s + "?)"
		}
		return nil, fmt.Errorf("pdk: unknown library %s%s: %s", network.Quote(spec), meant, allowed)
	}
	return nil, notFile(spec, err)
}

// isLibraryName reports whether name, in any case, names a library: one
// prefixgen carries or one it knows of and does not.
func isLibraryName(name string) bool {
	_, known := notCarried[strings.ToLower(name)]
	return known || slices.Contains(Names, strings.ToLower(name))
}

// notFile is the error of a file in a list that cannot be read, or is a
// folder (err nil).
func notFile(f string, err error) error {
	if err == nil {
		return fmt.Errorf("pdk: Liberty file %s is a folder (a folder is allowed alone, not in a list of files; %s)", f, allowed)
	}
	return fmt.Errorf("pdk: Liberty file %s cannot be read: %v (%s)", f, unwrapPath(err), allowed)
}

func unwrapPath(err error) error {
	if pe, ok := errors.AsType[*os.PathError](err); ok {
		return pe.Err
	}
	return err
}

// entry is one library in the cache: read once, by the first Open that
// asks.
type entry struct {
	once  sync.Once
	lib   *liberty.Library
	plain bool // one file, not compressed
	err   error
}

// libraries caches the libraries read, by key: the files' paths, sizes and
// modification times, or a carried library's name.
var libraries sync.Map

// cached returns the library of key, read by read the first time.
func cached(key string, read func() (*liberty.Library, bool, error)) (*liberty.Library, error) {
	lib, _, err := cachedPlain(key, read)
	return lib, err
}

func cachedPlain(key string, read func() (*liberty.Library, bool, error)) (*liberty.Library, bool, error) {
	v, _ := libraries.LoadOrStore(key, &entry{})
	e := v.(*entry)
	e.once.Do(func() { e.lib, e.plain, e.err = read() })
	return e.lib, e.plain, e.err
}

// readCarried reads a library the project carries.
func readCarried(name string) (*liberty.Library, bool, error) {
	var srcs []liberty.Source
	for _, f := range carried[name] {
		src, err := fs.ReadFile(files, f)
		if err == nil {
			src, err = liberty.Decompress(f, src)
		}
		if err != nil {
			return nil, false, fmt.Errorf("pdk: %s: %w", name, err)
		}
		srcs = append(srcs, liberty.Source{Name: f, Text: src})
	}
	lib, err := liberty.NewLibrary(srcs...)
	if err != nil {
		return nil, false, fmt.Errorf("pdk: %w", err)
	}
	return lib, false, nil
}

// maxText is the most text, decompressed, a library's files may hold
// together: liberty.MaxSize, the most one file may, which tests lower.
var maxText int64 = liberty.MaxSize

// readFiles reads the library of the files at paths, through the cache;
// *plain is set to the one file's path when it is one plain file, which
// the tools may read as it is.
func readFiles(paths []string, plain *string) (*liberty.Library, string, error) {
	var key strings.Builder
	// A FIFO or a process's output (<(…)) is read once: the tools read the
	// copy written of what was read.
	irregular := false
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, "", notFile(p, err)
		}
		if st.IsDir() {
			return nil, "", notFile(p, nil)
		}
		irregular = irregular || !st.Mode().IsRegular()
		abs, err := filepath.Abs(p)
		if err != nil {
			abs = p
		}
		fmt.Fprintf(&key, "%s\x00%d\x00%d\x00", abs, st.Size(), st.ModTime().UnixNano())
	}
	lib, isPlain, err := cachedPlain(key.String(), func() (*liberty.Library, bool, error) {
		var (
			srcs  []liberty.Source
			total int64
		)
		isPlain := len(paths) == 1 && !irregular
		for _, p := range paths {
			raw, err := bounded.ReadFile(p, maxText)
			if _, ok := errors.AsType[*bounded.TooLargeError](err); ok {
				return nil, false, fmt.Errorf("pdk: Liberty file %s is %w: allowed a Liberty file of up to %s", p, err, bounded.Size(maxText))
			}
			if err != nil {
				return nil, false, notFile(p, err)
			}
			src, err := liberty.Decompress(p, raw)
			if err != nil {
				return nil, false, fmt.Errorf("pdk: %w", err)
			}
			isPlain = isPlain && len(src) == len(raw)
			if total += int64(len(src)); total > maxText {
				return nil, false, fmt.Errorf("pdk: the Liberty files of this library hold more than %s of text together (past it at %s): allowed up to %s in all", bounded.Size(maxText), p, bounded.Size(maxText))
			}
			srcs = append(srcs, liberty.Source{Name: p, Text: src})
		}
		lib, err := liberty.NewLibrary(srcs...)
		if err != nil {
			return nil, false, fmt.Errorf("pdk: %w", err)
		}
		return lib, isPlain, nil
	})
	if err != nil {
		return nil, "", err
	}
	if isPlain {
		*plain = paths[0]
	}
	return lib, key.String(), nil
}

// written is one plain file written for the tools: written once, by the
// first File that asks.
type written struct {
	once sync.Once
	path string
	err  error
}

var (
	// writtenFiles caches the files written, by the library's key and its
	// dont-use globs.
	writtenFiles sync.Map
	// folder is the process's folder of written files, made by the first
	// File that writes one and removed by RemoveWritten or at the end of
	// the process (package cleanup); removeFolder removes it.
	folderMu     sync.Mutex
	folder       string
	removeFolder func()
)

// RemoveWritten removes the files File and MapFile wrote, which stay for
// the process's later runs until it ends, and forgets them: a later File
// writes its file again. Call it when no flow is under way.
func RemoveWritten() {
	folderMu.Lock()
	defer folderMu.Unlock()
	writtenFiles.Clear()
	if folder != "" {
		removeFolder()
		folder, removeFolder = "", nil
	}
}

// File returns the path of the one plain Liberty file the tools read: the
// library's own file where it is one plain file with no cell to mark
// dont_use, else the file Write writes, once per process, in a private
// temporary folder under a plain path (toolrun.TempDir) that RemoveWritten
// removes, or the end of the process (package cleanup). An error is a failure to
// write it, not bad input.
func (l *Library) File() (string, error) {
	if l.plain != "" {
		return l.plain, nil
	}
	key := l.key + "\x00" + strings.Join(l.DontUse, " ")
	v, _ := writtenFiles.LoadOrStore(key, &written{})
	w := v.(*written)
	w.once.Do(func() {
		w.path, w.err = l.write(key, "", func(bw io.Writer) error { return l.lib.Write(bw, l.IsDontUse) })
	})
	return w.path, w.err
}

// MapFile returns the path of the plain Liberty file that ABC maps a
// design without registers onto: File's without the cells ABC would not
// use, those not to use and the flip-flops and latches, which it reads and
// sets aside for every design (on ASAP7 a third of the library, and of the
// time it takes to read it). ABC maps onto the same cells from either
// file. It is File's own where no cell is left out, else written as File
// writes its file, once per process.
func (l *Library) MapFile() (string, error) {
	mapped := func(name string) bool {
		c := l.cells[name]
		return !c.DontUse && c.Clock == "" && !c.Latch
	}
	all := true
	for name := range l.cells {
		all = all && mapped(name)
	}
	if all && l.plain != "" {
		return l.plain, nil
	}
	key := l.key + "\x00" + strings.Join(l.DontUse, " ") + "\x00map"
	v, _ := writtenFiles.LoadOrStore(key, &written{})
	w := v.(*written)
	w.once.Do(func() {
		w.path, w.err = l.write(key, "-map", func(bw io.Writer) error { return l.lib.WriteCells(bw, nil, mapped) })
	})
	return w.path, w.err
}

// WriteCells writes the library as File's, with only the cells named:
// what OpenSTA reads to time a netlist of them.
func (l *Library) WriteCells(w io.Writer, cells []string) error {
	return l.lib.WriteCells(w, l.IsDontUse, func(c string) bool { return slices.Contains(cells, c) })
}

// Written reports whether File writes the file the tools read, rather
// than give the library's own: a file kept past the process needs a copy.
func (l *Library) Written() bool {
	return l.plain == ""
}

// write writes the file of File or MapFile with put, under the library's
// name, suffix and a hash of key.
func (l *Library) write(key, suffix string, put func(io.Writer) error) (string, error) {
	folderMu.Lock()
	if folder == "" {
		var err error
		if folder, removeFolder, err = cleanup.MkdirTemp(toolrun.TempDir(), "prefixgen-pdk-"); err != nil {
			folderMu.Unlock()
			return "", fmt.Errorf("pdk: %w", err)
		}
	}
	folder := folder
	folderMu.Unlock()
	sum := sha256.Sum256([]byte(key))
	name := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' {
			return r
		}
		return '_'
	}, l.lib.Name())
	p := filepath.Join(folder, name+"-"+hex.EncodeToString(sum[:4])+suffix+".lib")
	f, err := os.Create(p)
	if err != nil {
		return "", fmt.Errorf("pdk: %w", err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	err = put(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(p)
		return "", fmt.Errorf("pdk: writing the library %s: %w", l.Name, err)
	}
	return p, nil
}

// what names the library's files in an error: "Liberty file F", or "the
// Liberty files of SPEC".
func (l *Library) what(spec string) string {
	if len(l.Files) > 1 {
		return "the Liberty files of " + spec
	}
	return "Liberty file " + l.Files[0]
}
