# Container image of conferd (and the confer client), multi-stage:
#
#   docker build -t confer --build-arg VERSION=v0.1.0 .
#   docker run -p 8080:8080 -p 7882:7882/udp -p 7881:7881 -p 5060:5060/udp -p 5060:5060/tcp \
#     -p 40000-40199:40000-40199/udp -e CONFER_RTC_PUBLIC_IP=HOST_IP -e CONFER_SIP_PUBLIC_IP=HOST_IP \
#     -v confer-data:/var/lib/confer confer
#
# HOST_IP is the address callers reach the host at: inside the container
# conferd sees only its bridge address, and without --rtc-public-ip
# (CONFER_RTC_PUBLIC_IP) callers from outside get no audio or video.
#
# The first start prints the license key, secret and administrator
# password to the container's log (docker logs). deploy/compose.yaml runs
# it with PostgreSQL (docs/deployment.md "Containers").

# The Go of go.mod's go line.
FROM golang:1.26.8 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
# The build of scripts/build.sh: static (modernc.org/sqlite is pure Go),
# no local paths, the version stamped in.
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/conferd ./cmd/conferd
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/confer ./cmd/confer
# The data folder, owned by the runtime's non-root user.
RUN mkdir -p /out/data && chown 65532:65532 /out/data

# Debian with ffmpeg: composed pictures, transcoding, HLS and RTMP
# pushes run ffmpeg processes (docs/media.md "Composed pictures"); a node
# without it composes nothing and says so at start. User nonroot (65532).
FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg ca-certificates tzdata \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd -g 65532 nonroot && useradd -u 65532 -g 65532 -M -d /var/lib/confer -s /usr/sbin/nologin nonroot
COPY --from=build /out/conferd /out/confer /usr/local/bin/
COPY --from=build --chown=65532:65532 /out/data /var/lib/confer
USER nonroot:nonroot
WORKDIR /var/lib/confer
# SQLite database and meeting files (files/ beside it); with PostgreSQL
# (CONFER_DB=postgres://...) the meeting files only.
VOLUME /var/lib/confer
# SIP calls' RTP in a range small enough to publish (200 ports, 33 calls
# at once: up to three port pairs a call); widen it with -e and -p together.
ENV CONFER_ADDR=:8080 CONFER_DB=/var/lib/confer/confer.db CONFER_FILES_DIR=/var/lib/confer/files \
    CONFER_SIP_RTP_PORTS=40000-40199
# The API and console; WebRTC media (UDP, and TCP when UDP is blocked);
# SIP (UDP and TCP) and its calls' RTP.
EXPOSE 8080 7882/udp 7881 5060/udp 5060/tcp 40000-40199/udp
ENTRYPOINT ["/usr/local/bin/conferd"]
CMD ["serve"]
