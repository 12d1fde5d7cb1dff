# Container image of conferd (and the confer client), multi-stage:
#
#   docker build -t confer --build-arg VERSION=v0.1.0 .
#   docker run -p 8080:8080 -v confer-data:/var/lib/confer confer
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
# The data folder, owned by the runtime's non-root user (the runtime image
# has no shell to make it).
RUN mkdir -p /out/data && chown 65532:65532 /out/data

# No shell, no package manager; user nonroot (65532).
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/conferd /out/confer /usr/local/bin/
COPY --from=build --chown=65532:65532 /out/data /var/lib/confer
USER nonroot:nonroot
WORKDIR /var/lib/confer
# SQLite database and meeting files (files/ beside it); with PostgreSQL
# (CONFER_DB=postgres://...) the meeting files only.
VOLUME /var/lib/confer
ENV CONFER_ADDR=:8080 CONFER_DB=/var/lib/confer/confer.db CONFER_FILES_DIR=/var/lib/confer/files
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/conferd"]
CMD ["serve"]
