/*
 * glue.c: the functions libopus.wasm exports to Confer's Go side
 * (internal/audio/opus). Plain int arguments only: opus_encoder_ctl is
 * variadic, which a WebAssembly host cannot call, so each control used
 * gets its own function here. Pointers are offsets in the module's memory.
 */
#include <stdlib.h>
#include <opus.h>

#define EXPORT(name) __attribute__((export_name(#name)))

EXPORT(buf_alloc) void *buf_alloc(int n) { return malloc((size_t)n); }
EXPORT(buf_free) void buf_free(void *p) { free(p); }

/* enc_new returns an encoder, or 0 with the libopus error code at *err. */
EXPORT(enc_new) OpusEncoder *enc_new(int rate, int channels, int application, int *err) {
	return opus_encoder_create(rate, channels, application, err);
}
EXPORT(enc_free) void enc_free(OpusEncoder *e) { opus_encoder_destroy(e); }
EXPORT(enc_encode) int enc_encode(OpusEncoder *e, const opus_int16 *pcm, int frame, unsigned char *out, int max) {
	return opus_encode(e, pcm, frame, out, max);
}
EXPORT(enc_set_bitrate) int enc_set_bitrate(OpusEncoder *e, int v) { return opus_encoder_ctl(e, OPUS_SET_BITRATE(v)); }
EXPORT(enc_set_complexity) int enc_set_complexity(OpusEncoder *e, int v) { return opus_encoder_ctl(e, OPUS_SET_COMPLEXITY(v)); }
EXPORT(enc_set_inband_fec) int enc_set_inband_fec(OpusEncoder *e, int v) { return opus_encoder_ctl(e, OPUS_SET_INBAND_FEC(v)); }
EXPORT(enc_set_packet_loss) int enc_set_packet_loss(OpusEncoder *e, int v) { return opus_encoder_ctl(e, OPUS_SET_PACKET_LOSS_PERC(v)); }
EXPORT(enc_set_dtx) int enc_set_dtx(OpusEncoder *e, int v) { return opus_encoder_ctl(e, OPUS_SET_DTX(v)); }
EXPORT(enc_set_signal) int enc_set_signal(OpusEncoder *e, int v) { return opus_encoder_ctl(e, OPUS_SET_SIGNAL(v)); }

/* dec_new returns a decoder, or 0 with the libopus error code at *err. */
EXPORT(dec_new) OpusDecoder *dec_new(int rate, int channels, int *err) {
	return opus_decoder_create(rate, channels, err);
}
EXPORT(dec_free) void dec_free(OpusDecoder *d) { opus_decoder_destroy(d); }
/* dec_decode decodes one packet; data 0 (len 0) conceals a lost one, fec 1
 * decodes the in-band redundancy of the previous packet from this one. */
EXPORT(dec_decode) int dec_decode(OpusDecoder *d, const unsigned char *data, int len, opus_int16 *pcm, int frame, int fec) {
	return opus_decode(d, data, len, pcm, frame, fec);
}
