/*
 * bench-native.c: native libopus on the frames of
 * internal/audio/opus's BenchmarkEncode20ms and BenchmarkDecode20ms (a
 * 440 Hz tone, 48 kHz mono, 20 ms frames, 32 kbit/s, VoIP, complexity
 * 10 and 5), for docs/benchmarks.md "Opus in WebAssembly".
 *
 *   cc -O2 scripts/opus-wasm/bench-native.c -o /tmp/bench-native -lopus -lm && /tmp/bench-native
 */
#include <math.h>
#include <opus/opus.h>
#include <stdio.h>
#include <time.h>

static double now(void) {
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(void) {
	int err, len[50], n = 5000;
	short pcm[50][960], out[960];
	unsigned char pkt[50][1500];
	OpusEncoder *e = opus_encoder_create(48000, 1, OPUS_APPLICATION_VOIP, &err);
	OpusDecoder *d = opus_decoder_create(48000, 1, &err);
	opus_encoder_ctl(e, OPUS_SET_BITRATE(32000));
	for (int f = 0; f < 50; f++)
		for (int i = 0; i < 960; i++)
			pcm[f][i] = 8000 * sin(2 * M_PI * 440 * (f * 960 + i) / 48000.0);
	for (int cx = 10; cx >= 5; cx -= 5) {
		opus_encoder_ctl(e, OPUS_SET_COMPLEXITY(cx));
		double a = now();
		for (int i = 0; i < n; i++)
			len[i % 50] = opus_encode(e, pcm[i % 50], 960, pkt[i % 50], 1500);
		printf("%s: encode, complexity %d: %.0f CPU ns/op\n", opus_get_version_string(), cx, (now() - a) / n);
	}
	double b = now();
	for (int i = 0; i < n; i++)
		if (opus_decode(d, pkt[i % 50], len[i % 50], out, 960, 0) < 0)
			return 1;
	printf("%s: decode: %.0f CPU ns/op\n", opus_get_version_string(), (now() - b) / n);
	return 0;
}
