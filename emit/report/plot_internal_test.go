package report

import (
	"image/color"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Every family has a colour and a shape of its own: no two families share
// either (the plot once drew Kogge–Stone and zero-deficiency both orange).
func TestFamilyStyles(t *testing.T) {
	colours := map[color.Color]string{}
	shapes := map[string]string{}
	for i, fam := range familyOrder {
		c, g := familyStyle(fam, 0)
		shape := reflect.TypeOf(g).String()
		if fam == familyOrder[len(familyOrder)-1] {
			// The optimizer under a fan-out bound: the optimizer's colour,
			// hollow where the optimizer's is filled.
			oc, og := familyStyle("optimizer", 0)
			assert.Equal(t, oc, c)
			assert.NotEqual(t, reflect.TypeOf(og), reflect.TypeOf(g))
			assert.NotContains(t, shapes, shape, "%s shares its shape with %s", fam, shapes[shape])
			continue
		}
		assert.NotContains(t, colours, c, "%s shares its colour with %s", fam, colours[c])
		assert.NotContains(t, shapes, shape, "%s shares its shape with %s", fam, shapes[shape])
		colours[c], shapes[shape] = fam, fam
		_ = i
	}
	ks, _ := familyStyle("kogge-stone", 0)
	zd, _ := familyStyle("zero-deficiency", 0)
	assert.NotEqual(t, ks, zd)
}

// The size axis gets five to eleven labelled ticks at a round step.
func TestSizeTicks(t *testing.T) {
	for _, r := range [][2]float64{{100, 330}, {0, 10}, {3, 7}, {700, 3500}, {110, 121}, {60, 2000}} {
		labelled := 0
		for _, tk := range (sizeTicks{}).Ticks(r[0], r[1]) {
			assert.GreaterOrEqual(t, tk.Value, r[0])
			assert.LessOrEqual(t, tk.Value, r[1])
			if tk.Label != "" {
				labelled++
			}
		}
		assert.GreaterOrEqual(t, labelled, 4, "%v", r)
		assert.LessOrEqual(t, labelled, 11, "%v", r)
	}
}

// A larger fan-out gets a larger marker.
func TestFanoutRadius(t *testing.T) {
	for f := 1; f < 64; f++ {
		assert.Less(t, fanoutRadius(f), fanoutRadius(f+1))
	}
}
