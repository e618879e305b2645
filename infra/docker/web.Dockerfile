# syntax=docker/dockerfile:1
#
# Fanpilot static web apps: builds apps/dashboard or apps/fan-pwa with Vite and serves the result
# with unprivileged nginx on port 8080. Build from the repository root:
#   docker build -f infra/docker/web.Dockerfile --build-arg APP=dashboard -t fanpilot-dashboard .
#   docker build -f infra/docker/web.Dockerfile --build-arg APP=fan-pwa   -t fanpilot-fan-pwa .
# Each app's nginx config (infra/docker/web/$APP.conf) serves its index.html for client-side routes.

# ---- base: Node 24 with the repository's pnpm, through corepack ---------------------------------
FROM node:24-bookworm-slim AS base
# Keep in step with "packageManager" in package.json (the deploy tests check it).
ARG PNPM_VERSION=10.34.8
ENV COREPACK_ENABLE_DOWNLOAD_PROMPT=0 \
    CI=true \
    TURBO_TELEMETRY_DISABLED=1 \
    DO_NOT_TRACK=1
RUN corepack enable pnpm && corepack prepare "pnpm@${PNPM_VERSION}" --activate
WORKDIR /repo

# ---- deps: every package tarball the lockfile names (cached until the lockfile changes) ----------
FROM base AS deps
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml ./
RUN pnpm fetch

# ---- build: install and build the chosen app, then lay out the site as the gateway serves it ----
FROM deps AS build
ARG APP=dashboard
RUN case "$APP" in dashboard|fan-pwa) ;; *) echo "APP must be dashboard or fan-pwa, not '$APP'" >&2; exit 1 ;; esac
COPY . .
RUN pnpm install --frozen-lockfile --offline
RUN pnpm turbo run build --filter=@fanpilot/${APP}...
# The dashboard is served at /, the fan app under /fan/ (its Vite base), as on the api's origin.
RUN mkdir -p /site \
    && if [ "$APP" = "fan-pwa" ]; then cp -R apps/fan-pwa/dist /site/fan; else cp -R "apps/$APP/dist/." /site/; fi \
    && test -n "$(find /site -name index.html -print -quit)"

# ---- runtime: nginx as an unprivileged user (uid 101), listening on 8080 ----------------------
FROM nginxinc/nginx-unprivileged:1.28-alpine AS runtime
ARG APP=dashboard
COPY infra/docker/web/${APP}.conf /etc/nginx/conf.d/default.conf
COPY --from=build /site /srv/www
USER 101
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=5s --start-period=5s --retries=3 \
  CMD ["wget", "-q", "--spider", "http://127.0.0.1:8080/healthz"]
