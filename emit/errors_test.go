package emit_test

import (
	"errors"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/prefixgen/prefixgen/emit"
)

// failAfter is a writer that takes n bytes and then fails with err.
type failAfter struct {
	n   int
	err error
}

func (f *failAfter) Write(p []byte) (int, error) {
	if len(p) <= f.n {
		f.n -= len(p)
		return len(p), nil
	}
	n := f.n
	f.n = 0
	return n, f.err
}

// TestWriteErrorsWrapped checks that a writer's error reaches the caller
// of every emitter wrapped, not flattened to its text: errors.Is finds it,
// and the message is the package's one line.
func TestWriteErrorsWrapped(t *testing.T) {
	full := errors.New("disk full")
	net := koggeStone(t, 8)
	tests := []struct {
		name  string
		write func(w io.Writer) error
	}{
		{"verilog", func(w io.Writer) error { return emit.Verilog(w, net, emit.VerilogOptions{}) }},
		{"verilog testbench", func(w io.Writer) error {
			return emit.VerilogTestbench(w, net, emit.TestbenchOptions{Vectors: 10, Seed: 1})
		}},
		{"vhdl", func(w io.Writer) error { return emit.VHDL(w, net, emit.VHDLOptions{}) }},
		{"vhdl testbench", func(w io.Writer) error {
			return emit.VHDLTestbench(w, net, emit.TestbenchOptions{Vectors: 10, Seed: 1})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.write(&failAfter{n: 100, err: full})
			assert.ErrorIs(t, err, full)
			assert.EqualError(t, err, "emit: disk full")
		})
	}
	// The emitters that do not run a template return the writer's error
	// as it is.
	for name, write := range map[string]func(w io.Writer) error{
		"json": func(w io.Writer) error { return emit.JSON(w, net) },
		"text": func(w io.Writer) error { return emit.Text(w, net, emit.TextOptions{}) },
		"dot":  func(w io.Writer) error { return emit.DOT(w, net, emit.DOTOptions{}) },
		"svg":  func(w io.Writer) error { return emit.SVG(w, net, emit.SVGOptions{}) },
	} {
		assert.ErrorIs(t, write(&failAfter{n: 100, err: full}), full, name)
	}
}
