# One image for the API and the workers; compose picks the command.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps ./apps
COPY packages ./packages
RUN npm ci --no-fund --no-audit
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
# Chromium renders webpages; LibreOffice lays out documents and presentations as PDFs; fonts so
# text in pages and scans rasterises (Noto CJK for Japanese, Chinese and Korean).
RUN apt-get update && apt-get install -y --no-install-recommends chromium fonts-dejavu-core ca-certificates \
  libreoffice-writer-nogui libreoffice-impress-nogui libreoffice-calc-nogui \
  fonts-liberation2 fonts-crosextra-carlito fonts-crosextra-caladea fonts-noto-cjk \
  && rm -rf /var/lib/apt/lists/*
# Chromium and LibreOffice read what clients send, so each runs as a user of its own, never as
# the worker's: an exploit in a renderer or in LibreOffice cannot read the worker's
# /proc/<pid>/environ (DATABASE_URL, OPENAI_API_KEY, S3 keys). A worker started as root (compose
# does, with few capabilities) runs them as these users through setpriv; one started as `node`
# (the image's default user) runs them as itself, and says so at start-up
# (docs/security.md#what-each-deployment-gets).
RUN useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin xt-browser \
  && useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin xt-converter
WORKDIR /app
ENV NODE_ENV=production BROWSER_USER=xt-browser CONVERTER_USER=xt-converter
COPY --from=build /app /app
USER node
EXPOSE 3000
CMD ["node", "apps/api/dist/main.js"]
