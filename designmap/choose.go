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

// choose gives every adder a network by the delay model, from the timing
// m measured with choice cur: where its outputs have slack, the least
// cells whose model delay, scaled as OpenSTA measured cur's, uses no more
// than that slack; where they lack it, the fastest network for its bits'
// arrivals.
func (r *run) choose(ctx context.Context, cur choice, m *measure) (choice, error) {
	next := choice{nets: make([]*network.Network, len(r.adders))}
	for i, a := range r.adders {
		if err := ctx.Err(); err != nil {
			return next, err
		}
		n := a.width
		if n <= 2 {
			net, err := topologies.Build("ripple", n, nil)
			if err != nil {
				return next, err
			}
			next.nets[i] = net
			continue
		}
		now := cur.network(i)
		if now == nil {
			var err error
			if now, err = topologies.Build("brent-kung", n, nil); err != nil {
				return next, err
			}
		}
		at := m.arrivals[i]
		lo := slices.Min(at)
		rel := make([]float64, n)
		for j, t := range at {
			rel[j] = t - lo
		}
		prof := &delay.Profile{Arrival: rel}
		base := optimize.Options{Width: n, MaxDepth: n - 1, Seed: 1, Steps: searchSteps * n, Model: r.model, Profile: prof}

		fastOpt := base
		fastOpt.Objective = optimize.Delay
		fast, err := optimize.Minimize(ctx, fastOpt)
		if err != nil {
			return next, fmt.Errorf("designmap: %s: %w", a.cell, err)
		}
		slack := m.slack[i]
		if math.IsInf(slack, 1) {
			small, err := optimize.Minimize(ctx, base)
			if err != nil {
				return next, fmt.Errorf("designmap: %s: %w", a.cell, err)
			}
			next.nets[i] = small.Network
			continue
		}
		nowModel := r.model.AnalyzeProfile(now, prof)
		measured := m.cout[i] - lo
		if math.IsNaN(measured) || measured <= 0 {
			measured = nowModel.NS
		}
		// The model's delay this adder may take: its delay now, scaled by
		// how much later its outputs may leave than they do.
		allowed := nowModel.FO4 * (measured + slack) / measured
		if allowed <= fast.Model.FO4 {
			next.nets[i] = fast.Network
			continue
		}
		areaOpt := base
		areaOpt.MaxDelay = allowed
		small, err := optimize.Minimize(ctx, areaOpt)
		_, infeasible := errors.AsType[*optimize.InfeasibleError](err)
		_, notFound := errors.AsType[*optimize.NotFoundError](err)
		if infeasible || notFound {
			next.nets[i] = fast.Network
			continue
		}
		if err != nil {
			return next, fmt.Errorf("designmap: %s: %w", a.cell, err)
		}
		next.nets[i] = small.Network
	}
	return next, nil
}

// network is adder i's network in c, nil for Yosys's own.
func (c choice) network(i int) *network.Network {
	if c.yosys {
		return nil
	}
	return c.nets[i]
}
