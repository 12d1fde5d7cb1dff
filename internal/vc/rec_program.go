package vc

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/vrs/program"
)

// KindProgram is the record kind of a program of the recording system: the
// file a stopped recording leaves (issue 6). Playback plays programs; the
// recording-system (vrs) module lists them. A program belongs to the user
// domain of its conference (OwnerMoid ""), State "ready"; its id is the
// rec_id of the recording that made it (a decimal number, the file_id of
// playback). Its document:
//
//	id             integer, = the record id
//	name           the recording's video_name
//	duration       length in seconds (the recording minus its pauses)
//	size           estimated bytes: the conference bitrate (kbit/s) x 1000 / 8 x duration
//	bitrate        the conference bitrate in kbit/s
//	create_time    when the recording stopped (ISO 8601, record.TimeLayout)
//	start_time     when it started
//	conf_id, conf_name, vrs_id, rec_id
//	recorder_type, recorder_mode, main_stream, dual_stream, publish_mode, watermark, anonymous
//	members        [{mt_id}] of a terminal recording
//
// A recording made with media (rec_media.go) also has its file's figures
// (program.SetFile): duration and size are the file's, and file,
// duration_ms, width, height, video_codec, audio_codec, container, suffix
// and files describe it. The document is a program.Doc, the one type of
// both writers of programs (written by program.Encode).
const KindProgram = "vrs_program"

// programState is the State of a program record.
const programState = "ready"

// recLive is recorder_mode 2: a live broadcast without recording.
const recLive = 2

// programSave stores the program a recording leaves when it stops at now.
// A program saved already (a stop retried, or two nodes) stays as it is.
func (m *Module) programSave(ctx context.Context, c engine.Conference, rc engine.Recording, now time.Time, parts []media.RecordInfo) error {
	if rc.RecorderMode == recLive {
		return nil
	}
	secs := int(recLength(rc, now) / time.Second)
	bitrate := c.Bitrate()
	id, _ := strconv.Atoi(rc.RecID)
	some, someS := model.Some[int], model.Some[string]
	doc := program.Doc{
		ID: model.Some(int64(id)), Name: someS(rc.VideoName), Duration: some(secs),
		Size: model.Some(int64(bitrate) * 1000 / 8 * int64(secs)), Bitrate: some(bitrate),
		CreateTime: someS(record.FormatTime(now)), StartTime: someS(record.FormatTime(time.UnixMilli(rc.StartedAt))),
		ConfID: someS(c.ID()), VrsID: someS(rc.VrsID), RecID: someS(rc.RecID), Members: recMembers(rc),
		RecorderType: some(rc.RecorderType), RecorderMode: some(rc.RecorderMode), MainStream: some(rc.MainStream),
		DualStream: some(rc.DualStream), PublishMode: some(rc.PublishMode), Watermark: some(rc.Watermark), Anonymous: some(rc.Anonymous),
	}
	if name, ok := c.NameString(); ok {
		doc.ConfName = someS(name)
	} else { // as the conference holds it (null when it has none)
		doc.Keep("conf_name", c.MemberJSON("name"))
	}
	p := program.Program{Doc: doc}
	if len(parts) > 0 {
		files := make([]program.FileInfo, len(parts))
		for i, info := range parts {
			files[i] = program.FileInfo{Rel: info.Path, Bytes: info.Bytes, Duration: info.Duration,
				Width: info.Width, Height: info.Height, VideoCodec: info.VideoCodec, AudioCodec: info.AudioCodec, Container: info.Container}
		}
		program.SetParts(&p, id, files)
	}
	data, err := program.Encode(p.Doc)
	if err != nil {
		return err
	}
	err = m.st.CreateRecord(ctx, store.Record{Kind: KindProgram, ID: rc.RecID, DomainMoid: c.Rec.DomainMoid,
		State: programState, Data: data, CreatedAt: now, UpdatedAt: now})
	if errors.Is(err, store.ErrDuplicate) {
		return nil
	}
	return err
}

// storedProgram is what vc reads of a program: its name, length in
// seconds, file (relative to the recordings folder; "" recorded without
// media) and vrs_id as the program holds it. A member of another type
// reads as its zero value (vrs_id: as stored).
type storedProgram struct {
	Name     string          `json:"name"`
	Duration int             `json:"duration"`
	File     string          `json:"file"`
	VrsID    json.RawMessage `json:"vrs_id"`
}

// programGet reads a program of the domain; ok is false when there is none.
func (m *Module) programGet(ctx context.Context, domain, id string) (storedProgram, bool, error) {
	var p storedProgram
	rec, err := m.st.GetRecord(ctx, KindProgram, domain, id)
	if errors.Is(err, store.ErrNotFound) || id == "" {
		return p, false, nil
	}
	if err != nil {
		return p, false, err
	}
	if err := json.Unmarshal(rec.Data, &p); err != nil {
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) {
			return p, false, err
		}
	}
	return p, true, nil
}

// programNameFree answers 24105 when a program of the domain has the name.
func (m *Module) programNameFree(ctx context.Context, domain, name string) error {
	recs, _, err := m.st.ListRecords(ctx, store.RecordQuery{Kind: KindProgram, DomainMoid: domain})
	if err != nil {
		return err
	}
	for _, rec := range recs {
		doc, err := shape.Decode(rec.Data)
		if err != nil {
			return err
		}
		if tlStr(doc["name"]) == name {
			return errRecNameExists(name)
		}
	}
	return nil
}

// TimelineEnded saves the programs of the recordings still running when a
// conference ends: c is the conference as it was at its end (the
// conference hooks' Ended). The server calls it next to the engine's
// end-of-conference work.
func (m *Module) TimelineEnded(ctx context.Context, c engine.Conference) error {
	now := m.clk.Now()
	var errs []error
	for _, rc := range c.Recorders {
		parts, err := m.recMediaStop(ctx, c.Rec.DomainMoid, c.ID(), rc)
		if err != nil { // the media owner is out of reach: the parts on disk
			errs = append(errs, err)
			parts = m.recPartsInfo(rc, nil, now)
		}
		errs = append(errs, m.programSave(ctx, c, rc, now, parts))
	}
	return errors.Join(errs...)
}
