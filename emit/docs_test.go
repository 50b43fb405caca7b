package emit_test

import (
	"path/filepath"
	"testing"

	"github.com/prefixgen/prefixgen/emit"
)

// The README shows these pictures; they are regenerated with -update and
// must otherwise be what SVG draws today.
func TestDocsPictures(t *testing.T) {
	for _, name := range []string{"sklansky", "kogge-stone"} {
		file := name + "16.svg"
		t.Run(file, func(t *testing.T) {
			// golden reads and writes under testdata: docs is two levels up.
			golden(t, filepath.Join("..", "..", "docs", file), svgBytes(t, build(t, name, 16), emit.SVGOptions{}))
		})
	}
}
