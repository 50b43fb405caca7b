package physical

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// cacheFormat is the first thing a cache key hashes. Change it when
// prefixgen reads the tools' reports differently (parseStat, parseTiming,
// RedundantArea, the orders of the gates) or stores another result: the
// scripts, the design's Verilog, the library and the tools' versions are
// hashed too, and need no change here. TestCacheFormatCoversReaders fails
// when that code changes and cacheFormat does not.
const cacheFormat = "prefixgen synthesis cache 18"

// cache is the folder of Options.Cache: a result a design had, under a key
// of what it depends on (cache.key), in a file of its own.
type cache struct {
	dir string
	// base is the hash of what every design's result depends on in this
	// Run besides the design: the tools' versions, the library's files as
	// they are, the scripts and the options.
	base []byte
}

// cachedResult is what a cache entry holds: the figures of a Result, not
// the design's names, which copyFor gives.
type cachedResult struct {
	Format                   string
	Width                    int
	AreaUM2                  float64
	StdCells                 int
	RedundantUM2             float64
	Cells                    map[string]int
	DelayNS                  float64
	CriticalFrom, CriticalTo string
	Registers                int
	Spread                   *Spread
}

// CheckCache refuses, before anything is made or run, a cache folder
// (Options.Cache; "" is none) that cannot be used: one that is a file, or
// under one, a link to nothing, or one prefixgen cannot write in (a file
// is written there, or where the folder would be made, and removed). Run
// checks again.
func CheckCache(dir string) error {
	if dir == "" {
		return nil
	}
	cannot := func(err error) error {
		return &SetupError{msg: fmt.Sprintf("physical: cannot use the cache folder %s: %v: allowed a folder prefixgen can write in, or a path where one can be made", dir, unwrapPath(err)), err: err}
	}
	// The folder is made when the first entry is stored (store): a run
	// refused for its input makes none. Here a file is written where it
	// will be, or in the folder that will hold it.
	at := filepath.Clean(dir)
	for {
		st, err := os.Stat(at)
		if err == nil && !st.IsDir() {
			return cannot(fmt.Errorf("%s is not a directory", at))
		}
		if err == nil || filepath.Dir(at) == at {
			break
		}
		if lst, lerr := os.Lstat(at); lerr == nil && lst.Mode()&os.ModeSymlink != 0 {
			// No folder can be made through it: every entry would be
			// lost, and the run would not say so.
			return cannot(fmt.Errorf("%s is a link to nothing", at))
		}
		at = filepath.Dir(at)
	}
	probe, err := os.CreateTemp(at, ".prefixgen-probe-*")
	if err != nil {
		return cannot(err)
	}
	probe.Close()
	os.Remove(probe.Name())
	return nil
}

// openCache checks the folder dir as CheckCache does, then returns the
// cache of the Run with tools t and options opt.
func openCache(dir string, t *tools, opt Options) (*cache, error) {
	if err := CheckCache(dir); err != nil {
		return nil, err
	}
	h := sha256.New()
	// The library by its files' contents, not its name: one file named
	// two ways, or a named library and its file, is one library. An entry
	// holds no name (load takes the run's).
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00", cacheFormat, t.yosysVersion, t.staVersion)
	for _, f := range []string{t.liberty, t.mapping} {
		sum, err := fileHash(f)
		if err != nil {
			return nil, fmt.Errorf("physical: %w", err)
		}
		h.Write(sum)
	}
	// The scripts as every design's would be but for the names of the
	// module and the library's file.
	flow := opt.flow()
	for _, registers := range []bool{false, true} {
		fmt.Fprintf(h, "\x00%s", YosysScript(flow, "top", "liberty.lib", t.lib.Record, registers))
	}
	fmt.Fprintf(h, "\x00%s\x00%s", ABCConstraints(t.lib.Record), STAScript("top", "liberty.lib", opt.load()))
	if opt.Profile != nil {
		fmt.Fprintf(h, "\x00profile %v %v", opt.Profile.Arrival, opt.Profile.Required)
	}
	fmt.Fprintf(h, "\x00orders %d", opt.Orders)
	return &cache{dir: dir, base: h.Sum(nil)}, nil
}

// fileHashes holds the hash of each library file this process has read,
// by its path, size and time of change.
var fileHashes sync.Map

// fileHash returns the SHA-256 of the file's bytes.
func fileHash(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	id := fmt.Sprint(path, st.Size(), st.ModTime().UnixNano())
	if sum, ok := fileHashes.Load(id); ok {
		return sum.([]byte), nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil, err
	}
	sum := h.Sum(nil)
	fileHashes.Store(id, sum)
	return sum, nil
}

// key returns the name of the entry of design d: the hash of the Run's
// base and of the design's Verilog, its width, where it came from and its
// architecture. An adder prefixgen wrote is hashed as textKey reads it
// (comments left out, the module's name made one); a design of the user's
// whole, with its top module's name, since its comments may be Yosys's
// (synthesis translate_off) and its names its own, and with its macros
// and include folders where it has them.
func (c *cache) key(d *Design) string {
	text := textKey(d.Verilog, d.Top)
	if d.outside {
		text = fmt.Sprintf("verilog %x top %s%s", sha256.Sum256(d.Verilog), d.Top, d.sources())
	}
	h := sha256.New()
	h.Write(c.base)
	fmt.Fprintf(h, "\x00%s\x00%d %v %v %s", text, d.Width, d.outside, d.toolNames, d.Adder.Name())
	return hex.EncodeToString(h.Sum(nil))
}

// cacheable reports whether design d's result may be stored and taken
// from the cache: not a design of the user's that includes a file or
// reads one ($readmemh, $readmemb), whose text the key does not hold.
func cacheable(d *Design) bool {
	return !d.outside || !bytes.Contains(d.Verilog, []byte("`include")) && !bytes.Contains(d.Verilog, []byte("$readmem"))
}

// plausible reports whether an entry's figures are ones a synthesis of
// design d gives: finite, areas not negative, its cells adding up to its
// count, of d's width where d has one, and its names (the critical path's
// ends, the cells') ones the tools write: printing, without spaces (but
// for the words of a path's end such as "clock pulse width"), at most
// maxToolName bytes. Another is a miss.
func (e *cachedResult) plausible(d *Design) bool {
	sum := 0
	for name, n := range e.Cells {
		if n < 0 || !toolName(name) {
			return false
		}
		sum += n
	}
	// A delay under a profile (Options.Profile) is the latest output's
	// lateness past its required time, negative where every output is
	// early: finite is all a delay must be.
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	size := func(v float64) bool { return v >= 0 && finite(v) }
	if s := e.Spread; s != nil {
		for _, v := range []float64{s.AreaMedian, s.AreaMin, s.AreaMax} {
			if !size(v) {
				return false
			}
		}
		for _, v := range []float64{s.DelayMedian, s.DelayMin, s.DelayMax} {
			if !finite(v) {
				return false
			}
		}
	}
	// A path's end may be "clock pulse width" (Result.CriticalFrom).
	end := func(s string) bool { return s == "" || toolName(strings.ReplaceAll(s, " ", "_")) }
	return sum == e.StdCells && size(e.AreaUM2) && finite(e.DelayNS) && size(e.RedundantUM2) &&
		e.Registers >= 0 && (d.Width == 0 || e.Width == d.Width) && end(e.CriticalFrom) && end(e.CriticalTo)
}

// maxToolName is the longest name of a pin or cell a cache entry may hold:
// Verilog's longest identifier, and a bus's index.
const maxToolName = 1100

// toolName reports whether s is a name the tools write of a pin or a
// cell: not empty, of characters that print, without spaces.
func toolName(s string) bool {
	if s == "" || len(s) > maxToolName || !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if unicode.IsSpace(r) || !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

// path returns the file of the entry key.
func (c *cache) path(key string) string {
	return filepath.Join(c.dir, key[:2], key+".json")
}

// load returns the result the cache holds for design d, under d's names,
// or false. An entry that does not read is a miss: the design runs, and
// its result takes the entry's place.
func (c *cache) load(d *Design, r0 *Result) (*Result, bool) {
	if !cacheable(d) {
		return nil, false
	}
	b, err := os.ReadFile(c.path(c.key(d)))
	if err != nil {
		return nil, false
	}
	var e cachedResult
	if err := json.Unmarshal(b, &e); err != nil || e.Format != cacheFormat || e.Cells == nil || !e.plausible(d) {
		return nil, false
	}
	r := *r0
	r.Width, r.AreaUM2, r.StdCells, r.RedundantUM2 = e.Width, e.AreaUM2, e.StdCells, e.RedundantUM2
	r.Cells = e.Cells
	r.DelayNS, r.CriticalFrom, r.CriticalTo, r.Registers = e.DelayNS, e.CriticalFrom, e.CriticalTo, e.Registers
	r.Spread = e.Spread
	return r.copyFor(d), true
}

// store writes the result r of design d into the cache, whole or not at
// all (a temporary file renamed into place, so that runs at once never
// read half an entry). A cache it cannot write to costs only the time of
// running the design again: the error is not the Run's.
func (c *cache) store(d *Design, r *Result) {
	if !cacheable(d) {
		return
	}
	key := c.key(d)
	b, err := json.Marshal(cachedResult{
		Format: cacheFormat, Width: r.Width, AreaUM2: r.AreaUM2, StdCells: r.StdCells, RedundantUM2: r.RedundantUM2,
		Cells: maps.Clone(r.Cells), DelayNS: r.DelayNS, CriticalFrom: r.CriticalFrom, CriticalTo: r.CriticalTo,
		Registers: r.Registers, Spread: r.Spread,
	})
	if err != nil {
		return
	}
	dst := c.path(key)
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return
	}
	_ = writeWhole(dst, b) // a miss next time, no more
}
