package emit

import (
	"fmt"
	"io"

	"github.com/prefixgen/prefixgen/network"
)

// JSON writes the network as a prefixgen.network/v1 document.
func JSON(w io.Writer, n *network.Network) error {
	data, err := n.MarshalJSON()
	if err != nil {
		return fmt.Errorf("emit: %w", err)
	}
	_, err = w.Write(data)
	return err
}
