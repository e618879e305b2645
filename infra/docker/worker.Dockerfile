# syntax=docker/dockerfile:1
#
# Fanpilot worker: the BullMQ consumer that ingests knowledge and answers fans (apps/worker), built
# by tsup to dist/main.js beside the workspace packages it imports (each with its own dist/), with
# production dependencies only. Build from the repository root:
#   docker build -f infra/docker/worker.Dockerfile -t fanpilot-worker .
#
# Health: the worker answers GET /healthz on WORKER_HEALTH_PORT (default 3100) with 200 while it is
# connected to Redis and consuming, and with 503 otherwise. HEALTHCHECK below probes it.

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

# ---- build: install, build the worker and its packages, then deploy them with their dependencies -
FROM deps AS build
COPY . .
RUN pnpm install --frozen-lockfile --offline
RUN pnpm turbo run build --filter=@fanpilot/worker...
# pnpm 10 deploys from the lockfile only with injected workspace packages; enable it for this
# command alone (the workspace itself keeps symlinked packages for development).
RUN pnpm --filter @fanpilot/worker deploy --prod --config.inject-workspace-packages=true /out \
    && rm -rf /out/dist \
    && cp -R apps/worker/dist /out/dist

# ---- runtime: Node and production node_modules, run as the unprivileged `node` user ------------
FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    DATA_DIR=/data \
    WORKER_HEALTH_PORT=3100
WORKDIR /app
RUN mkdir -p /data && chown node:node /data
COPY --from=build /out/package.json ./package.json
COPY --from=build /out/node_modules ./node_modules
COPY --from=build /out/dist ./dist
USER node
EXPOSE 3100
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.WORKER_HEALTH_PORT||3100)+'/healthz',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "--enable-source-maps", "dist/main.js"]
