package store

import (
	"crypto/sha256"
	"encoding/hex"
)

// Hash is "sha256:" and the hex SHA-256 of an encoding made by
// quarry.EncodeTable: the content hash recorded for a result.
func Hash(body []byte) string {
	sum := sha256.Sum256(body)
	return "sha256:" + hex.EncodeToString(sum[:])
}
