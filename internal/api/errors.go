package api

import (
	"errors"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/wire"
)

// The platform's codes of the engine's failures (reference A3, seed 000
// "Errors"); the engine returns its errors by meaning (engine/errors.go)
// and speaks no code.
const (
	CodeMaxConfs   = 27505                   // 会议数已达上限: the maximum number of conferences is reached
	CodeNoResource = wire.CodeNoConfResource // 27506 无创会所需资源: no idle conference resource
	CodeNumberUsed = 20106                   // 会议号重复: the number a template or room binds is in use
	CodeQuota      = 20164                   // 已达到会议数上限, 无法创建其他会议: an account's or domain's quota
)

// Failure is err as the client sees it (docs/architecture.md "Errors by
// meaning"): an engine failure becomes the platform's code of its meaning,
// with the engine's description; any other error is returned as it is
// (a *wire.Error, or 99999 at the envelope). This is the one table from
// meanings to codes: the request pipeline applies it to every handler's
// error.
func Failure(err error) error {
	var ee *engine.Error
	if err == nil || !errors.As(err, &ee) {
		return err
	}
	var code int
	switch {
	case errors.Is(ee, engine.ErrConfNotFound):
		code = wire.CodeConfNotFound
	case errors.Is(ee, engine.ErrMaxConfs):
		code = CodeMaxConfs
	case errors.Is(ee, engine.ErrNoResource):
		code = CodeNoResource
	case errors.Is(ee, engine.ErrNumberUsed):
		code = CodeNumberUsed
	case errors.Is(ee, engine.ErrQuota):
		code = CodeQuota
	default:
		return err // a meaning without a code: 99999
	}
	return &wire.Error{Code: code, Desc: ee.Desc}
}
