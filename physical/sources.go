package physical

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/network"
)

// CheckSources reports, as a *SetupError, what is wrong with the include
// folders and macros a user's Verilog is read with (Design.Includes and
// Defines, read_verilog -I and -D): a folder that cannot be read or is
// not one, an empty path, a macro that is not NAME or
// NAME=VALUE with NAME a plain identifier and VALUE without spaces, quotes, ;
// or # (a Yosys script would end the command at ; and take # for a
// comment).
func CheckSources(includes, defines []string) error {
	bad := func(format string, args ...any) error {
		return &SetupError{msg: "physical: " + fmt.Sprintf(format, args...)}
	}
	for _, d := range includes {
		// Any path will do: the script names each by a link of a plain
		// name (readVerilog).
		if d == "" {
			return bad("include folder \"\": allowed the path of a folder of Verilog headers")
		}
		st, err := os.Stat(d)
		if err != nil {
			return bad("include folder %s cannot be read (%v): allowed a folder of Verilog headers", network.Quote(d), unwrapPath(err))
		}
		if !st.IsDir() {
			return bad("include folder %s is not a folder: allowed a folder of Verilog headers", network.Quote(d))
		}
	}
	for _, d := range defines {
		name, _, _ := strings.Cut(d, "=")
		if !emit.PlainIdentifier(name) || strings.ContainsAny(d, "\"\n\r\t ;#") {
			return bad("define %s: allowed NAME or NAME=VALUE, NAME an identifier, VALUE without spaces, quotes, ; or #", network.Quote(d))
		}
	}
	return nil
}

// readVerilog returns the script line that reads design.v in dir, with
// d's macros and include folders (IncludeFlags).
func (d *Design) readVerilog(dir string) (string, error) {
	var b strings.Builder
	b.WriteString("read_verilog")
	for _, m := range d.Defines {
		b.WriteString(" -D" + m)
	}
	flags, err := IncludeFlags(dir, d.Includes)
	if err != nil {
		return "", err
	}
	for _, f := range flags {
		b.WriteString(" " + f)
	}
	b.WriteString(" design.v\n")
	return b.String(), nil
}

// IncludeFlags links each folder of includes into dir under a plain
// name, include1 and on, made anew, and returns read_verilog's -I flags
// naming the links, in order: Yosys takes a folder's path as written,
// quotes and all.
func IncludeFlags(dir string, includes []string) ([]string, error) {
	flags := make([]string, 0, len(includes))
	for i, inc := range includes {
		abs, err := filepath.Abs(inc)
		if err != nil {
			return nil, err
		}
		name := fmt.Sprintf("include%d", i+1)
		link := filepath.Join(dir, name)
		if err := os.Remove(link); err != nil && !os.IsNotExist(err) {
			return nil, err
		}
		if err := os.Symlink(abs, link); err != nil {
			return nil, err
		}
		flags = append(flags, "-I"+name)
	}
	return flags, nil
}
