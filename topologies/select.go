package topologies

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/prefixgen/prefixgen/network"
)

// ParseParams reads parameters written as name=value, such as "k=1", into
// network.Params. A malformed item, a value that is not an integer, or a
// name given twice is an error; names are checked against a topology only by
// Build.
func ParseParams(items []string) (network.Params, error) {
	p := network.Params{}
	for _, item := range items {
		name, value, ok := strings.Cut(item, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, fmt.Errorf("topologies: parameter %s is not name=value: write it as, e.g., k=1", network.Quote(item))
		}
		v, err := strconv.Atoi(strings.TrimSpace(value))
		if ne, ok := errors.AsType[*strconv.NumError](err); ok && ne.Err == strconv.ErrRange {
			return nil, fmt.Errorf("topologies: parameter %s: the value %s is out of range: allowed an integer from %d to %d, e.g., k=1", network.Quote(name), network.Quote(value), math.MinInt, math.MaxInt)
		}
		if err != nil {
			return nil, fmt.Errorf("topologies: parameter %s: the value %s is not an integer: write it as, e.g., k=1", network.Quote(name), network.Quote(value))
		}
		if _, dup := p[name]; dup {
			return nil, fmt.Errorf("topologies: parameter %s given twice: give each at most once", network.Quote(name))
		}
		p[name] = v
	}
	return p, nil
}

// Select builds the topology with the given name at width n with parameters
// p, or, for the name "all", every topology in the order of All, each with
// those parameters of p that it takes. With "all", a parameter that no
// topology takes is an error.
func Select(name string, n int, p network.Params) ([]*network.Network, error) {
	if name != "all" {
		net, err := Build(name, n, p)
		if err != nil {
			return nil, err
		}
		return []*network.Network{net}, nil
	}
	return SelectList(Names(), n, p)
}

// SelectList builds the named topologies at width n, in the order given,
// each with those parameters of p that it takes. A name given twice, an
// unknown name, or a parameter that none of them takes is an error.
func SelectList(names []string, n int, p network.Params) ([]*network.Network, error) {
	var ts []Topology
	var known []string
	for i, name := range names {
		if slices.Contains(names[:i], name) {
			return nil, fmt.Errorf("topologies: %s given twice: allowed each topology once", network.Quote(name))
		}
		t, err := Lookup(name)
		if err != nil {
			return nil, err
		}
		ts = append(ts, t)
		for _, q := range t.Params {
			if !slices.Contains(known, q.Name) {
				known = append(known, q.Name)
			}
		}
	}
	given := make([]string, 0, len(p))
	for name := range p {
		given = append(given, name)
	}
	slices.Sort(given)
	for _, name := range given {
		if !slices.Contains(known, name) {
			if len(known) == 0 {
				return nil, fmt.Errorf("topologies: no topology given has parameter %s: they take none", network.Quote(name))
			}
			if len(names) == len(registry) {
				return nil, fmt.Errorf("topologies: no topology has parameter %s: allowed are %s", network.Quote(name), strings.Join(known, ", "))
			}
			return nil, fmt.Errorf("topologies: no topology given has parameter %s: allowed are %s", network.Quote(name), strings.Join(known, ", "))
		}
	}
	if len(ts) > 1 {
		if err := checkWidth(n); err != nil {
			return nil, err
		}
	}
	nets := make([]*network.Network, 0, len(ts))
	for _, t := range ts {
		own := network.Params{}
		for _, q := range t.Params {
			if v, ok := p[q.Name]; ok {
				own[q.Name] = v
			}
		}
		net, err := t.Build(n, own)
		if err != nil {
			return nil, err
		}
		nets = append(nets, net)
	}
	return nets, nil
}

// checkWidth refuses a width no network has, where several topologies are
// built and none of them is the obstacle.
func checkWidth(n int) error {
	if n < 1 || n > network.MaxWidth {
		return fmt.Errorf("topologies: width %d out of range: allowed 1…%d", n, network.MaxWidth)
	}
	return nil
}

// compareK are the Ladner–Fischer parameters Compare builds.
var compareK = []int{0, 1, 2, 3}

// Compare builds every topology at width n, in the order of All, for the
// side-by-side comparison of the prefixgen compare command: Ladner–Fischer
// for k = 0, 1, 2 and 3; Knowles [2,1,…,1] (s = 2^(L−2), L = ⌈log2 n⌉),
// the Knowles network with the least fan-out after Kogge–Stone's; Harris
// (1, L−2, 0), the sparse Sklansky network that many tools call
// Ladner–Fischer; zero-deficiency at its least depth; and the others, and
// every family below width 3, with their default parameters.
func Compare(n int) ([]*network.Network, error) {
	if err := checkWidth(n); err != nil {
		return nil, err
	}
	specs := CompareSpecs(n)
	nets := make([]*network.Network, 0, len(specs))
	for _, sp := range specs {
		net, err := sp.Topology.Build(n, sp.Params)
		if err != nil {
			return nil, err
		}
		nets = append(nets, net)
	}
	return nets, nil
}

// Spec is a topology with its parameters: one network at any width.
type Spec struct {
	Topology Topology
	Params   network.Params
}

// CompareSpecs returns the networks Compare builds at width n, in its
// order, without building them (package limits estimates their cells).
func CompareSpecs(n int) []Spec {
	specs := make([]Spec, 0, len(registry)+len(compareK)-1)
	for _, t := range registry {
		var params []network.Params
		levels := ceilLog2(int64(max(n, 1)))
		switch {
		case t.Name == "ladner-fischer":
			for _, k := range compareK {
				params = append(params, network.Params{"k": k})
			}
		case t.Name == "knowles" && levels >= 2:
			params = []network.Params{{"s": 1 << (levels - 2)}}
		case t.Name == "harris" && levels >= 2:
			params = []network.Params{{"l": 1, "f": levels - 2}}
		default:
			params = []network.Params{nil}
		}
		for _, p := range params {
			specs = append(specs, Spec{Topology: t, Params: p})
		}
	}
	return specs
}
