package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/topologies"
)

// fromKey is where the document --from names is kept once read, in the
// app's metadata: a command reads the file once, so that --from may name a
// pipe.
const fromKey = "prefixgen/from"

// fromDocument is the --from file, read.
type fromDocument struct {
	net  *network.Network
	arch adder.Architecture
	// recorded: an adder document, which fixes every part of arch; a
	// network document's plain adder is a default any flag may change.
	recorded bool
	err      error
}

// readFrom reads the document --from names, once per run: a
// prefixgen.network/v1 document (the plain adder) or a prefixgen.adder/v1
// one, a network with the architecture of the adder around it, which it
// records (recorded).
func readFrom(c *cli.Context) (net *network.Network, arch adder.Architecture, recorded bool, err error) {
	if d, ok := c.App.Metadata[fromKey].(*fromDocument); ok {
		return d.net, d.arch, d.recorded, d.err
	}
	d := &fromDocument{}
	d.net, d.arch, d.recorded, d.err = readDocument(c, c.String("from"))
	if c.App.Metadata == nil {
		c.App.Metadata = map[string]any{}
	}
	c.App.Metadata[fromKey] = d
	return d.net, d.arch, d.recorded, d.err
}

// readDocument reads the network document or adder document at path, as
// readFrom reads --from's: the network proven and its claim checked, the
// architecture an adder document records (recorded) or the standard one.
func readDocument(c *cli.Context, path string) (net *network.Network, arch adder.Architecture, recorded bool, err error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return nil, arch, false, fmt.Errorf("prefixgen %s: cannot read network file %s: it is a folder: allowed a %s or %s file", c.Command.Name, path, network.Format, adder.DocumentFormat)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, arch, false, fmt.Errorf("prefixgen %s: cannot read network file: %v", c.Command.Name, err)
	}
	recorded = adder.IsDocument(data)
	net, arch, err = adder.ReadDocument(bytes.NewReader(data))
	if err == nil {
		err = claim(net)
	}
	if err != nil {
		return nil, arch, false, fmt.Errorf("prefixgen %s: %s: %v", c.Command.Name, path, err)
	}
	return net, arch, recorded, nil
}

// claim checks what a network read from a file says it is
// (topologies.CheckClaim): a registered topology's name with parameters in
// range, on that topology's very cells, or a name of the user's own. Its
// error is one line without the package's name, for "FILE: …".
func claim(net *network.Network) error {
	err := topologies.CheckClaim(net)
	if ce, ok := errors.AsType[*topologies.ClaimError](err); ok {
		return claimError{ce}
	}
	return err
}

// claimError is a *topologies.ClaimError without the package's name in
// its message.
type claimError struct{ err *topologies.ClaimError }

func (e claimError) Error() string { return strings.TrimPrefix(e.err.Error(), "topologies: ") }

func (e claimError) Unwrap() error { return e.err }

// hasFlag reports whether the command defines the flag name.
func hasFlag(c *cli.Context, name string) bool {
	return slices.ContainsFunc(c.Command.Flags, func(f cli.Flag) bool { return slices.Contains(f.Names(), name) })
}

// architecture returns the architecture of the adder the command builds:
// the architecture flags the command defines (adder.ReadFlags), read over
// the --from document's where there is one. An adder document records its
// whole architecture, and a flag that contradicts it is bad usage; a
// network document's adder is the standard one, which any flag may change.
func architecture(c *cli.Context) (adder.Architecture, error) {
	var rec *adder.Recorded
	// With -t too, networks refuses both; --widths refuses --from.
	if c.String("from") != "" && c.String("topology") == "" && !c.IsSet("widths") {
		_, arch, recorded, err := readFrom(c)
		if err != nil {
			return adder.Architecture{}, err
		}
		if recorded {
			rec = &adder.Recorded{Architecture: arch, Path: c.String("from")}
		}
	}
	arch, err := adder.ReadFlags(c, rec)
	if err != nil {
		return adder.Architecture{}, adderUsage(c, err)
	}
	return arch, nil
}
