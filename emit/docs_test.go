package emit_test

import (
	"path/filepath"
	"testing"

	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/internal/golden"
)

// The README shows these pictures; they are regenerated with -update and
// must otherwise be what SVG draws today.
func TestDocsPictures(t *testing.T) {
	for _, name := range []string{"sklansky", "kogge-stone"} {
		file := name + "16.svg"
		t.Run(file, func(t *testing.T) {
			golden.Check(t, filepath.Join("..", "docs", file), svgBytes(t, build(t, name, 16), emit.SVGOptions{}))
		})
	}
}
