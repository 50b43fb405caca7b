package topologies_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/topologies"
)

// FuzzSelect feeds command-line text (a topology name, a width and one
// --param item) through ParseParams and Select: no input may panic, an error
// is one line prefixed with the package name, and a network that comes back
// has the requested width.
func FuzzSelect(f *testing.F) {
	f.Add("ladner-fischer", 33, "k=1")
	f.Add("all", 64, "k=3")
	f.Add("sklansky", 8, "k=1")
	f.Add("kogge-stone", 0, "")
	f.Add("brent-kung", 5, "k")
	f.Add("ladner-fischer", 7, "k=99")
	f.Add("nope", 7, "k=\n1")
	f.Add("carry-select", 64, "l=5,g=2")
	f.Fuzz(func(t *testing.T, name string, n int, item string) {
		n %= 2048 // the widths, not the memory, are what is fuzzed
		var items []string
		if item != "" {
			items = strings.Split(item, ",")
		}
		p, err := topologies.ParseParams(items)
		if err == nil {
			var nets []*network.Network
			nets, err = topologies.Select(name, n, p)
			for _, net := range nets {
				require.Equal(t, n, net.Width())
			}
		}
		if err != nil {
			require.True(t, strings.HasPrefix(err.Error(), "topologies: "), err.Error())
			require.NotContains(t, err.Error(), "\n")
		}
	})
}

// FuzzCheckClaim feeds network files, as --from reads them, to
// CheckClaim: no file may panic it, and a refusal is one line prefixed
// with the package name.
func FuzzCheckClaim(f *testing.F) {
	f.Add(`{"format":"prefixgen.network/v1","width":6,"topology":"carry-select","params":{"l0":4,"l1":2},"cells":[[0,1],[6,2],[7,3],[4,5],[8,4],[8,9]],"outputs":[0,6,7,8,10,11]}`)
	f.Add(`{"format":"prefixgen.network/v1","width":6,"topology":"carry-select","params":{"l":4,"g":0},"cells":[[0,1],[6,2],[7,3],[4,5],[8,4],[8,9]],"outputs":[0,6,7,8,10,11]}`)
	f.Add(`{"format":"prefixgen.network/v1","width":6,"topology":"carry-select","params":{"l0":4,"l2":2},"cells":[[0,1],[6,2],[7,3],[4,5],[8,4],[8,9]],"outputs":[0,6,7,8,10,11]}`)
	f.Add(`{"format":"prefixgen.network/v1","width":4,"topology":"ladner-fischer","params":{"k":99},"cells":[[0,1],[2,3],[4,2],[4,5]],"outputs":[0,4,6,7]}`)
	f.Add(`{"format":"prefixgen.network/v1","width":4,"topology":"sklansky","params":{},"cells":[[0,1],[2,3],[4,2],[4,5]],"outputs":[0,4,6,7]}`)
	f.Fuzz(func(t *testing.T, doc string) {
		net, err := network.Read(strings.NewReader(doc))
		if err != nil || net.Width() > 4096 {
			return
		}
		if err := topologies.CheckClaim(net); err != nil {
			require.True(t, strings.HasPrefix(err.Error(), "topologies: "), err.Error())
			require.NotContains(t, err.Error(), "\n")
		}
		// Whatever the document, the segments read from its cells build
		// those cells again.
		if segs, ok := topologies.CarrySelectSegmentsOf(net); ok {
			again, err := topologies.CarrySelect(net.Width(), segs...)
			require.NoError(t, err)
			require.Equal(t, net.Spec().Cells, again.Spec().Cells)
		}
	})
}
