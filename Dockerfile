# syntax=docker/dockerfile:1
# Listkeeper API image: `docker build -t listkeeper .` (docker-compose.yml runs it with
# Postgres and Redis). Node 24 is the current LTS line; argon2 ships prebuilt glibc binaries,
# so the slim Debian image needs no compiler.
ARG NODE_IMAGE=node:24-bookworm-slim

# --- build: dev dependencies, the TypeScript compiler and esbuild; output in dist/ (the service
# and dist/console-web/, the browser console's bundle) ---
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# npm ci runs `prepare` (the freshness check), which finds no src/ yet and does nothing.
COPY scripts ./scripts
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

# --- runtime: production dependencies, the compiled service and its SQL migrations ---
FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
COPY package.json package-lock.json ./
# `prepare` and the `listkeeper` bin (`npx listkeeper …`) run the check, which finds no src/
# here and runs dist/ as shipped: the image has no compiler.
COPY scripts ./scripts
COPY bin ./bin
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# applied at start (under a Postgres advisory lock) and by `node dist/migrateMain.js`
COPY migrations ./migrations
# DATA_DIR is only used without DATABASE_URL (embedded PGlite); mount a volume there to keep it.
RUN mkdir -p /app/data && chown node:node /app/data

# the official image's unprivileged user
USER node
ENV HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/app/data
EXPOSE 3000
# Ready means Postgres (and Redis when configured) answer; slim images have no curl.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node, not npm, as PID 1's child: SIGTERM reaches the service, which drains and exits 0.
CMD ["node", "dist/main.js"]
