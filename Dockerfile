# Builds the same single executable as `npm run build` and runs it on a slim Debian.
#   docker build -t balcao .
#   docker run -p 8080:8080 -v balcao-data:/data -e BALCAO_ADMIN_EMAIL=you@example.com balcao
FROM node:20-bookworm AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build

FROM debian:bookworm-slim
RUN apt-get update \
  && apt-get install -y --no-install-recommends ca-certificates tzdata \
  && rm -rf /var/lib/apt/lists/* \
  && useradd --system --home /data --shell /usr/sbin/nologin balcao \
  && install -d -m 700 -o balcao -g balcao /data
COPY --from=build /src/dist/balcao /usr/local/bin/balcao
USER balcao
ENV BALCAO_DATA_DIR=/data HOST=0.0.0.0 PORT=8080
VOLUME /data
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=3s CMD ["/bin/sh", "-c", "exec 3<>/dev/tcp/127.0.0.1/8080"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/balcao"]
CMD ["serve"]
