package designmap

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/prefixgen/prefixgen/delay"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/optimize"
	"github.com/prefixgen/prefixgen/topologies"
)

// searchSteps is the annealing steps per bit of each search of choose:
// enough for the model's optimum of the widths designs have, few enough
// that a design of dozens of adders is chosen in seconds.
const searchSteps = 60

// buildFamily builds family b at width n; a width the family's parameters
// do not fit falls back to its default ones.
func buildFamily(b Baseline, n int) (*network.Network, error) {
	net, err := topologies.Build(b.Topology, n, b.Params)
	if err != nil && len(b.Params) > 0 {
		net, err = topologies.Build(b.Topology, n, nil)
	}
	if err != nil {
		return nil, fmt.Errorf("designmap: %s at %d bits: %w", b.Name(), n, err)
	}
	return net, nil
}

// The choices choose makes for each adder. Where its outputs lack slack:
// the model's fastest network for its bits' arrivals, kept whole (fast),
// or the network it has (keep). Where they have slack: Yosys's own merged
// into the logic around it, which ABC maps smallest (flat), where the
// slack is at least flatAbove of the clock period, and otherwise the
// network it has; or the fewest cells whose model delay uses no more than
// share of the slack (share > 0). Which is best, only the flow can say:
// Map measures them all.
var choices = []struct {
	critical  string
	flatAbove float64 // with share 0: the least slack, in periods, for Yosys's own merged
	share     float64
}{
	{"fast", 2, 0}, // slack kept: no slack reaches two periods
	{"fast", 0, 0},
	{"keep", 0.1, 0},
	{"keep", 0.2, 0},
	{"fast", 0.1, 0},
	{"keep", 0, 0.25},
}

// choose gives every adder networks by the delay model, from the timing m
// measured with choice cur, and returns one choice of networks per entry
// of choices, to be measured.
func (r *run) choose(ctx context.Context, cur choice, m *measure) ([]choice, error) {
	adders := r.designs[cur.design].adders
	tries := make([]choice, len(choices))
	for k := range tries {
		tries[k] = choice{design: cur.design, nets: make([]*network.Network, len(adders))}
	}
	for i, a := range adders {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		n := a.width
		now := cur.network(i) // nil: Yosys's own
		modelNow := now
		if modelNow == nil {
			var err error
			if modelNow, err = topologies.Build("brent-kung", n, nil); err != nil {
				return nil, err
			}
		}
		if n <= 2 {
			for k := range tries {
				tries[k].nets[i] = now
			}
			continue
		}
		at := m.arrivals[i]
		lo := slices.Min(at)
		rel := make([]float64, n)
		for j, t := range at {
			rel[j] = t - lo
		}
		prof := &delay.Profile{Arrival: rel}
		base := optimize.Options{Width: n, MaxDepth: n - 1, Seed: 1, Steps: searchSteps * n, Model: r.model, Profile: prof}
		slack := m.slack[i]
		if slack <= 0 {
			opt := base
			opt.Objective = optimize.Delay
			res, err := optimize.Minimize(ctx, opt)
			fast := res.Network
			if err != nil {
				return nil, fmt.Errorf("designmap: %s: %w", a.cell, err)
			}
			for k, c := range choices {
				tries[k].nets[i] = now
				if c.critical == "fast" {
					tries[k].nets[i] = fast
				}
			}
			continue
		}
		nowModel := r.model.AnalyzeProfile(modelNow, prof)
		measured := m.cout[i] - lo
		if math.IsNaN(measured) || measured <= 0 {
			measured = nowModel.NS
		}
		small := map[float64]*network.Network{}
		for k, c := range choices {
			if c.share == 0 {
				tries[k].nets[i] = now
				if slack >= c.flatAbove*r.opt.PeriodNS {
					tries[k].nets[i] = nil
				}
				continue
			}
			if net, ok := small[c.share]; ok {
				tries[k].nets[i] = net
				continue
			}
			opt := base
			if !math.IsInf(slack, 1) {
				// The model's delay this adder may take: its delay now,
				// scaled by how much later its outputs may leave.
				opt.MaxDelay = nowModel.FO4 * (measured + c.share*slack) / measured
			}
			res, err := optimize.Minimize(ctx, opt)
			_, infeasible := errors.AsType[*optimize.InfeasibleError](err)
			_, notFound := errors.AsType[*optimize.NotFoundError](err)
			switch {
			case infeasible || notFound:
				small[c.share] = now
			case err != nil:
				return nil, fmt.Errorf("designmap: %s: %w", a.cell, err)
			default:
				small[c.share] = res.Network
			}
			tries[k].nets[i] = small[c.share]
		}
	}
	return tries, nil
}

// network is adder i's network in c, nil for Yosys's own.
func (c choice) network(i int) *network.Network {
	if c.nets == nil {
		return nil
	}
	return c.nets[i]
}
