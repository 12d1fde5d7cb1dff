package vc

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/wire"
)

// The recording of a creation's recorder settings (create_features.go;
// reference 04 "创建会议" recorder: publish_mode, dual_stream, anonymous,
// recorder_mode 1 record, 2 live, 3 both, vrs_id): a conference recording
// (recorder_type 1) of the main stream, started with the conference as
// rec.go's start stores one. Its video_name is the conference name, the
// conf_id and the start time ("<name>-<conf_id>-YYYYMMDDhhmmss"), kept
// within video_name's 64 bytes and characters.

// createdProblem is a creation setting that could not start; the start
// goes on without it.
type createdProblem struct{ error }

func isCreatedProblem(err error) bool {
	var p createdProblem
	return errors.As(err, &p)
}

// createdRecorder appends the creation's recording to the running
// recordings of c.
func (m *Module) createdRecorder(ctx context.Context, c *engine.Conference, p model.MCConfsCreateRequestRecorder, now time.Time) error {
	vrsID := p.VRSID.Or("")
	if own := vrsIDOf(c.Rec.DomainMoid); vrsID == "" {
		vrsID = own
	} else if vrsID != own {
		return createdProblem{fmt.Errorf("recorder.vrs_id %q is not a recording server of the user domain: the recording is not started", vrsID)}
	}
	name := createdVideoName(c.Name(), c.ID(), now)
	if err := m.programNameFree(ctx, c.Rec.DomainMoid, name); err != nil {
		var we *wire.Error
		if errors.As(err, &we) {
			return createdProblem{fmt.Errorf("recorder: %w: the recording is not started", err)}
		}
		return err
	}
	for _, rc := range c.Recorders {
		if rc.RecorderType == recTypeConf {
			return nil // recorded already
		}
	}
	n, err := m.st.NextNumber(ctx, recCounter, 1, 1<<31-1)
	if err != nil {
		return err
	}
	c.Recorders = append(c.Recorders, engine.Recording{RecID: strconv.FormatInt(n, 10), VideoName: name,
		RecorderType: recTypeConf, VrsID: vrsID, Members: []string{}, State: recRecording, StartedAt: tlMs(now),
		PublishMode: p.PublishMode, Anonymous: p.Anonymous,
		RecorderMode: p.RecorderMode, MainStream: 1, DualStream: p.DualStream})
	return nil
}

// createdVideoName is a video_name that recName accepts: the conference
// name without the characters video names refuse, then the conf_id and
// the time.
func createdVideoName(confName, confID string, at time.Time) string {
	suffix := "-" + confID + "-" + at.UTC().Format("20060102150405")
	base := strings.Map(func(r rune) rune {
		if strings.ContainsRune(recBadChars, r) {
			return -1
		}
		return r
	}, confName)
	base = strings.TrimLeft(base, recBadEnds+" ")
	for len(base)+len(suffix) > recMaxName {
		_, size := utf8.DecodeLastRuneInString(base)
		base = base[:len(base)-size]
	}
	if base == "" {
		base = "conference"
	}
	return base + suffix
}
