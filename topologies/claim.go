package topologies

import (
	"fmt"
	"slices"
	"strings"

	"github.com/prefixgen/prefixgen/network"
)

// ClaimError is the error of CheckClaim: a network that names a registered
// family it is not.
type ClaimError struct{ msg string }

func (e *ClaimError) Error() string { return e.msg }

// CheckClaim checks what a network read from outside says it is. A network
// that names no topology, or one the registry does not hold ("mine",
// "optimizer"), is the user's own and passes. One that names a registered
// family must carry parameters that family takes, in range, and be the
// very network the family builds at its width with them (its cells the
// same spans, in any order; a higher-valency form carries v, as Valency
// builds it). Otherwise it is a *ClaimError that says what the network
// claims and what is allowed, so that a Sklansky network is never labelled,
// and named in Verilog, as ladner-fischer k=99. A carry-select network may
// carry its segments' lengths l0, l1, … instead of l and g (CarrySelect).
func CheckClaim(net *network.Network) error {
	name := net.Topology()
	if name == "" || !slices.Contains(Known(), name) {
		return nil
	}
	p := net.Params()
	claim := claimName(name, p)
	var want *network.Network
	segs, isSegs, err := carrySelectClaimed(name, p)
	switch v := ValencyOf(net); {
	case err != nil:
	case isSegs:
		want, err = CarrySelect(net.Width(), segs...)
	case v > 2:
		want, err = Valency(name, net.Width(), v)
	default:
		want, err = Build(name, net.Width(), p)
	}
	if err != nil {
		return &ClaimError{fmt.Sprintf("topologies: the network claims to be %s, which is not a network of the registry (%s): allowed a registered topology with its parameters in range, or a topology name of your own", claim, strings.TrimPrefix(err.Error(), "topologies: "))}
	}
	if !sameCells(net, want) {
		return &ClaimError{fmt.Sprintf("topologies: the network claims to be %s at width %d, but its cells are not that network's: allowed the network %s builds, or a topology name of your own (such as \"custom\")", claim, net.Width(), name)}
	}
	return nil
}

// claimName writes a topology and its parameters as "ladner-fischer k=99",
// the parameters past network.QuoteLimit characters counted, not written.
func claimName(name string, p network.Params) string {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	b.WriteString(name)
	for i, k := range keys {
		if b.Len() > len(name)+network.QuoteLimit {
			fmt.Fprintf(&b, " … and %d more", len(keys)-i)
			break
		}
		fmt.Fprintf(&b, " %s=%d", network.Cut(k), p[k])
	}
	return b.String()
}

// sameCells reports whether a and b have the same width and cells, as the
// spans each cell joins, in any order.
func sameCells(a, b *network.Network) bool {
	if a.Width() != b.Width() || a.Size() != b.Size() {
		return false
	}
	return slices.Equal(spans(a), spans(b))
}

// spans lists the spans each cell of net joins, sorted.
func spans(net *network.Network) [][4]int {
	cells := make([][4]int, net.Size())
	for k := range cells {
		c := net.Cell(k)
		lo, hi := net.Span(c.Lo), net.Span(c.Hi)
		cells[k] = [4]int{lo.From, lo.To, hi.From, hi.To}
	}
	slices.SortFunc(cells, func(x, y [4]int) int { return slices.Compare(x[:], y[:]) })
	return cells
}
