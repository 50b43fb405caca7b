package physical

import (
	"fmt"
	"strings"
	"sync"

	"github.com/prefixgen/prefixgen/delay"
	"github.com/prefixgen/prefixgen/liberty"
	"github.com/prefixgen/prefixgen/physical/pdk"
)

// Model returns the delay model's library for the library spec names (as
// Options.Liberty) with the cells dontUse names not to use (as
// Options.DontUse): delay.OSU018 for OSU 0.18 µm, whose constants the
// package delay documents, and otherwise delay.Calibrate's measurement of
// the library's own cells, the platform's cells not to use left out. A
// library is measured once per process. Its errors are *SetupError, as for
// a library Run cannot read.
func Model(spec string, dontUse []string) (*delay.Library, error) {
	lib, err := openLibrary(spec, dontUse)
	if err != nil {
		return nil, err
	}
	if len(lib.Files) == 1 && lib.Files[0] == pdk.Debian["osu018"] && len(lib.DontUse) == 0 {
		return &delay.OSU018, nil
	}
	key := strings.Join(lib.Files, ",") + "\x00" + strings.Join(lib.DontUse, " ")
	v, _ := models.LoadOrStore(key, &modelEntry{})
	e := v.(*modelEntry)
	e.once.Do(func() {
		root := &liberty.Group{Groups: lib.Liberty().Groups()}
		m, err := delay.Calibrate(root, delay.CalibrateOptions{Name: lib.Name, DontUse: lib.IsDontUse})
		if err != nil {
			e.err = &SetupError{msg: fmt.Sprintf("physical: the delay model cannot stand on library %s: %s", lib.Name, strings.TrimPrefix(err.Error(), "delay: ")), err: err}
			return
		}
		e.lib = &m
	})
	return e.lib, e.err
}

// models caches Model's libraries by their files and cells not to use.
var models sync.Map

type modelEntry struct {
	once sync.Once
	lib  *delay.Library
	err  error
}
