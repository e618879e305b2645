# syntax=docker/dockerfile:1
#
# Fanpilot api: the Fastify server (apps/api), bundled by tsup, with production dependencies only.
# Build from the repository root:
#   docker build -f infra/docker/api.Dockerfile -t fanpilot-api .
# The same image runs the one-shot database migration: `node dist/migrate-cli.js`.

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

# ---- build: install, build the api and the packages it imports, then deploy them --------------
# Each workspace package is built to its own dist/ and deployed (injected) with its own production
# dependencies; the api's bundle holds only its own files, dist/server.js and dist/migrate-cli.js.
FROM deps AS build
COPY . .
RUN pnpm install --frozen-lockfile --offline
RUN pnpm turbo run build --filter=@fanpilot/api...
# pnpm 10 deploys from the lockfile only with injected workspace packages; enable it for this
# command alone (the workspace itself keeps symlinked packages for development).
RUN pnpm --filter @fanpilot/api deploy --prod --config.inject-workspace-packages=true /out \
    && rm -rf /out/dist \
    && cp -R apps/api/dist /out/dist

# ---- runtime: Node and production node_modules, run as the unprivileged `node` user ------------
FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
RUN mkdir -p /data && chown node:node /data
COPY --from=build /out/package.json ./package.json
COPY --from=build /out/node_modules ./node_modules
COPY --from=build /out/dist ./dist
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# A small young generation (8 MB semi-spaces; by default V8 grows them to 64 MB, a 128 MB new space,
# on the 23 GB bench machine): ~75 MB less at rest and with 10,000 idle event streams
# (docs/performance.md#idle-event-streams, record 0084). --heap-growing-percent=20: the old space
# grows by a fifth at a time rather than V8's up to 4x, so a burst of streams leaves less committed
# behind (10,000 idle streams ~365 MB instead of ~400; the polling mix's GC share unchanged, record
# 0091; --optimize-for-size went to ~320 MB but doubled the GC share and cost 15 % of the polls).
CMD ["node", "--enable-source-maps", "--max-semi-space-size=8", "--heap-growing-percent=20", "dist/server.js"]
