package designmap

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
)

// maxSumCopies bounds the adder cells mergeSums adds, so that a design
// whose sums are shared in a chain many deep does not grow without end.
const maxSumCopies = 256

// mergeSums rewrites the Yosys JSON of the flat module top, read before
// alumacc, so that each chain of additions becomes one sum. An adder ($add
// or $sub) whose sum is a whole operand of other adders is one operand of
// theirs that alumacc cannot merge while anything else reads it: Yosys
// then resolves its carries, and every adder after it waits for them.
// mergeSums gives each adder that reads such a sum a copy of its own of
// the adders that make it (the adder and those that feed only it), so that
// alumacc sums each chain in one carry-save tree with one final adder: the
// SHA-256 round's t1 feeds both a_new = t1 + t2 and e_new = d + t1.
//
// It returns the JSON and the number of adder cells it added, 0 (and data
// as it was) where no sum is shared; at most maxSumCopies are added.
func mergeSums(data []byte, top string) ([]byte, int, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		return nil, 0, fmt.Errorf("designmap: yosys's json: %w", err)
	}
	modules, _ := doc["modules"].(map[string]any)
	mod, _ := modules[top].(map[string]any)
	if mod == nil {
		return nil, 0, fmt.Errorf("designmap: yosys's json has no module %s", top)
	}
	cells, _ := mod["cells"].(map[string]any)
	netnames, _ := mod["netnames"].(map[string]any)
	if cells == nil || netnames == nil {
		return data, 0, nil
	}
	for name, v := range cells {
		c, ok := v.(map[string]any)
		if !ok || conns(c) == nil {
			return nil, 0, fmt.Errorf("designmap: yosys's json: cell %s has no connections", name)
		}
	}
	d := &sumDesign{cells: cells, netnames: netnames, ports: mod["ports"]}
	d.next = d.maxBit() + 1
	added := 0
	for added < maxSumCopies {
		n := d.mergeOne(maxSumCopies - added)
		if n == 0 {
			break
		}
		added += n
	}
	if added == 0 {
		return data, 0, nil
	}
	out, err := json.Marshal(doc)
	if err != nil {
		return nil, 0, err
	}
	return out, added, nil
}

// sumDesign is the module mergeSums rewrites: its cells and netnames as
// decoded, each bit a json.Number (a signal) or a string (a constant).
type sumDesign struct {
	cells, netnames map[string]any
	ports           any
	next            int64 // the next free signal number
	copies          int   // the copies made, for their names
}

// use is one cell port (or, cell "", a module output) that reads a bit.
type use struct{ cell, port string }

// isAdder reports whether cell c is an $add or $sub.
func isAdder(c map[string]any) bool {
	t, _ := c["type"].(string)
	return t == "$add" || t == "$sub"
}

func conns(c map[string]any) map[string]any {
	m, _ := c["connections"].(map[string]any)
	return m
}

// bits returns port p of cell c as the keys of its bits ("" for a
// constant bit, which no cell drives).
func bits(c map[string]any, p string) []string {
	l, _ := conns(c)[p].([]any)
	out := make([]string, len(l))
	for i, b := range l {
		if n, ok := b.(json.Number); ok {
			out[i] = n.String()
		}
	}
	return out
}

// param reads an integer parameter, which Yosys writes as binary digits.
func param(c map[string]any, name string) int64 {
	p, _ := c["parameters"].(map[string]any)
	switch v := p[name].(type) {
	case string:
		n, err := strconv.ParseInt(v, 2, 64)
		if err != nil {
			return -1
		}
		return n
	case json.Number:
		n, _ := v.Int64()
		return n
	}
	return -1
}

func (d *sumDesign) maxBit() int64 {
	var top int64 = 1
	scan := func(v any) {
		l, _ := v.([]any)
		for _, b := range l {
			if n, ok := b.(json.Number); ok {
				if k, err := n.Int64(); err == nil && k > top {
					top = k
				}
			}
		}
	}
	for _, c := range d.cells {
		for _, v := range conns(c.(map[string]any)) {
			scan(v)
		}
	}
	for _, n := range d.netnames {
		m, _ := n.(map[string]any)
		scan(m["bits"])
	}
	return top
}

// index finds each adder's sum's bits and who reads every bit.
func (d *sumDesign) index() (drivers map[string]string, users map[string][]use) {
	drivers, users = map[string]string{}, map[string][]use{}
	for name, v := range d.cells {
		c := v.(map[string]any)
		dirs, _ := c["port_directions"].(map[string]any)
		for p := range conns(c) {
			dir, _ := dirs[p].(string)
			for _, b := range bits(c, p) {
				if b == "" {
					continue
				}
				switch {
				case dir == "output" && isAdder(c) && p == "Y":
					drivers[b] = name
				case dir != "output":
					users[b] = append(users[b], use{name, p})
				}
			}
		}
	}
	ports, _ := d.ports.(map[string]any)
	for _, v := range ports {
		p, _ := v.(map[string]any)
		if dir, _ := p["direction"].(string); dir == "input" {
			continue
		}
		l, _ := p["bits"].([]any)
		for _, b := range l {
			if n, ok := b.(json.Number); ok {
				users[n.String()] = append(users[n.String()], use{})
			}
		}
	}
	return drivers, users
}

// operands splits the reads of adder name's sum into the adders that take
// it whole as operand A or B (widths allowing the merge), and whether
// anything else reads any of its bits.
func (d *sumDesign) operands(name string, users map[string][]use) (whole []use, other bool) {
	c := d.cells[name].(map[string]any)
	y := bits(c, "Y")
	seen := map[use]bool{}
	for _, b := range y {
		for _, u := range users[b] {
			if seen[u] {
				continue
			}
			seen[u] = true
			rc, _ := d.cells[u.cell].(map[string]any)
			if rc != nil && isAdder(rc) && (u.port == "A" || u.port == "B") &&
				slices.Equal(bits(rc, u.port), y) && param(rc, "Y_WIDTH") <= int64(len(y)) {
				whole = append(whole, u)
				continue
			}
			other = true
		}
	}
	slices.SortFunc(whole, func(a, b use) int {
		return cmp.Or(cmp.Compare(a.cell, b.cell), cmp.Compare(a.port, b.port))
	})
	return whole, other
}

// mergeOne copies the adders of the first shared sum (in the order of the
// cells' names) for each adder that reads it but one, adding at most
// budget cells, and returns the cells added.
func (d *sumDesign) mergeOne(budget int) int {
	drivers, users := d.index()
	names := make([]string, 0, len(d.cells))
	for name, v := range d.cells {
		if isAdder(v.(map[string]any)) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		whole, other := d.operands(name, users)
		if len(whole) == 0 || (len(whole) == 1 && !other) {
			continue
		}
		if !other {
			// The last reader keeps the original.
			whole = whole[:len(whole)-1]
		}
		size := d.coneSize(name, drivers, users)
		added := 0
		for _, u := range whole {
			if added+size > budget {
				break
			}
			y := d.copyCone(name, drivers, users)
			conns(d.cells[u.cell].(map[string]any))[u.port] = y
			added += size
		}
		if added > 0 {
			return added
		}
	}
	return 0
}

// feeder is the adder whose sum is port p of cell c whole and which
// nothing else reads, or "".
func (d *sumDesign) feeder(c map[string]any, p string, self string, drivers map[string]string, users map[string][]use) string {
	b := bits(c, p)
	if len(b) == 0 || b[0] == "" {
		return ""
	}
	f, ok := drivers[b[0]]
	if !ok {
		return ""
	}
	if !slices.Equal(bits(d.cells[f].(map[string]any), "Y"), b) {
		return ""
	}
	for _, bit := range b {
		for _, u := range users[bit] {
			if u.cell != self || u.port != p {
				return ""
			}
		}
	}
	return f
}

// coneSize counts adder name and the adders that feed only it.
func (d *sumDesign) coneSize(name string, drivers map[string]string, users map[string][]use) int {
	c := d.cells[name].(map[string]any)
	n := 1
	for _, p := range []string{"A", "B"} {
		if f := d.feeder(c, p, name, drivers, users); f != "" {
			n += d.coneSize(f, drivers, users)
		}
	}
	return n
}

// copyCone adds a copy of adder name and of the adders that feed only it,
// and returns the copy's sum's bits.
func (d *sumDesign) copyCone(name string, drivers map[string]string, users map[string][]use) []any {
	c := d.cells[name].(map[string]any)
	cp := make(map[string]any, len(c))
	for k, v := range c {
		cp[k] = v
	}
	cc := map[string]any{}
	for p, v := range conns(c) {
		cc[p] = v
	}
	cp["connections"] = cc
	for _, p := range []string{"A", "B"} {
		if f := d.feeder(c, p, name, drivers, users); f != "" {
			cc[p] = d.copyCone(f, drivers, users)
		}
	}
	y := make([]any, len(bits(c, "Y")))
	for i := range y {
		y[i] = json.Number(strconv.FormatInt(d.next, 10))
		d.next++
	}
	cc["Y"] = y
	d.copies++
	copyName := fmt.Sprintf("$prefixgen$sum$%d", d.copies)
	cp["hide_name"] = json.Number("1")
	d.cells[copyName] = cp
	d.netnames[copyName+"$Y"] = map[string]any{"hide_name": json.Number("1"), "bits": y, "attributes": map[string]any{}}
	return y
}
