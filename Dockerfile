# The match server as a small image: built with the Rust toolchain, run from Debian slim as an
# unprivileged user. Build: docker build -t tafl-server .
FROM rust:1.95-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release --locked -p server

FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates curl \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home-dir /data --create-home tafl
COPY --from=build /src/target/release/server /usr/local/bin/tafl-server
USER tafl
WORKDIR /data
ENV TAFL_BIND=0.0.0.0:8080 \
    DATABASE_URL=sqlite:///data/tafl.db \
    TAFL_LOG_FORMAT=json
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
    CMD curl -fsS http://127.0.0.1:8080/api/health || exit 1
ENTRYPOINT ["/usr/local/bin/tafl-server"]
