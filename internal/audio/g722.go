package audio

import "fmt"

// G.722 is not implemented yet.
func newG722Decoder() (Decoder, error) {
	return nil, fmt.Errorf("%w: G722 (not implemented yet)", ErrUnsupported)
}

func newG722Encoder() (Encoder, error) {
	return nil, fmt.Errorf("%w: G722 (not implemented yet)", ErrUnsupported)
}
