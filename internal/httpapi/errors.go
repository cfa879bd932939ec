package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
)

// statusCanceled is the de facto status for a request the client gave up.
const statusCanceled = 499

// Status is the one table from quarry error kinds to HTTP statuses.
func Status(k quarry.Kind) int {
	switch k {
	case quarry.KindUsage, quarry.KindInput, quarry.KindConfig:
		return http.StatusBadRequest
	case quarry.KindNotFound:
		return http.StatusNotFound
	case quarry.KindUnauthenticated:
		return http.StatusUnauthorized
	case quarry.KindExpired:
		return http.StatusGone
	case quarry.KindRejected, quarry.KindForbidden, quarry.KindTooCostly, quarry.KindUnanswered, quarry.KindQuery:
		return http.StatusUnprocessableEntity
	case quarry.KindConflict:
		return http.StatusConflict
	case quarry.KindTimeout:
		return http.StatusGatewayTimeout
	case quarry.KindConnection, quarry.KindModel:
		return http.StatusBadGateway
	case quarry.KindUnsupported:
		return http.StatusNotImplemented
	case quarry.KindCanceled:
		return statusCanceled
	}
	return http.StatusInternalServerError
}

// apiError is the body of every error response.
type apiError struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

func errorBody(err error) apiError {
	return apiError{Kind: string(quarry.KindOf(err)), Message: quarry.Message(err)}
}

// writeError writes err as {"error": {kind, message}} with the status its
// kind maps to. The message is the user-safe one; causes stay inside.
func writeError(w http.ResponseWriter, err error) {
	writeErrorStatus(w, Status(quarry.KindOf(err)), err)
}

// writeErrorStatus writes err with an explicit status, for the refusals
// that are transport matters (403, 413, 429).
func writeErrorStatus(w http.ResponseWriter, status int, err error) {
	writeJSON(w, status, map[string]apiError{"error": errorBody(err)})
}

// writeJSON writes v as JSON with the given status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString(`{"error":{"kind":"internal","message":"cannot encode the response"}}` + "\n")
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// decodeJSON reads exactly one JSON value into v from a body already
// limited by the server. Unknown fields, trailing data and bodies over the
// limit are errors that name what is wrong.
func decodeJSON(w http.ResponseWriter, r *http.Request, v any) (int, error) {
	if ct := r.Header.Get("Content-Type"); ct != "" && !strings.HasPrefix(strings.ToLower(ct), "application/json") {
		return http.StatusUnsupportedMediaType, quarry.Errorf(quarry.KindInput, "send the body as application/json, not %s", ct)
	}
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return bodyError(err)
	}
	if err := dec.Decode(&struct{}{}); err != io.EOF {
		if err == nil {
			return http.StatusBadRequest, quarry.Errorf(quarry.KindInput, "the body holds more than one JSON value; send one object")
		}
		if st, e := bodyError(err); st == http.StatusRequestEntityTooLarge {
			return st, e
		}
		return http.StatusBadRequest, quarry.Errorf(quarry.KindInput, "the body holds more than one JSON value; send one object")
	}
	return 0, nil
}

func bodyError(err error) (int, error) {
	var tooBig *http.MaxBytesError
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &tooBig):
		return http.StatusRequestEntityTooLarge, quarry.Errorf(quarry.KindInput, "the body is over the limit of %d bytes", tooBig.Limit)
	case errors.Is(err, io.EOF):
		return http.StatusBadRequest, quarry.Errorf(quarry.KindInput, "the body is empty; send a JSON object")
	case errors.As(err, &syn):
		return http.StatusBadRequest, quarry.Errorf(quarry.KindInput, "the body is not valid JSON at byte %d: %s", syn.Offset, syn.Error())
	case errors.As(err, &typ):
		if typ.Field == "" {
			return http.StatusBadRequest, quarry.Errorf(quarry.KindInput, "the body must be %s, not a JSON %s", jsonKind(typ.Type), typ.Value)
		}
		return http.StatusBadRequest, quarry.Errorf(quarry.KindInput, "field %q must be %s, not a JSON %s", typ.Field, jsonKind(typ.Type), typ.Value)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		field := strings.TrimPrefix(err.Error(), "json: unknown field ")
		return http.StatusBadRequest, quarry.Errorf(quarry.KindInput, "unknown field %s; the fields are listed in docs/api.md", field)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return http.StatusBadRequest, quarry.Errorf(quarry.KindInput, "the body ends in the middle of a JSON value")
	}
	return http.StatusBadRequest, quarry.Errorf(quarry.KindInput, "the body cannot be read as JSON: %s", err.Error())
}

// jsonKind says in JSON's words what a Go type is decoded from, never
// the Go type's name.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	}
	return "a JSON object"
}

// errf is shorthand for a KindInput error about a field.
func errf(format string, args ...any) error {
	return quarry.Errorf(quarry.KindInput, "%s", fmt.Sprintf(format, args...))
}
