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
# /proc/<pid>/environ (DATABASE_URL, OPENAI_API_KEY, S3 keys). Each conversion at once has a
# converter user of its own, so one cannot read another's files; `node` is in each converter
# user's group, to share a conversion's folder with it. In compose the helper launcher
# (apps/worker/dist/helper-launcher.js, root) starts the worker as `node` and these programs as
# these users; the image run as `node` without it runs them as itself, and says so at start-up
# (docs/security.md#what-each-deployment-gets).
RUN useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin xt-browser \
  && for i in 0 1 2 3 4 5 6 7; do \
    useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin xt-converter-$i \
    && usermod --append --groups xt-converter-$i node; \
  done
WORKDIR /app
ENV NODE_ENV=production BROWSER_USER=xt-browser \
  CONVERTER_USER=xt-converter-0,xt-converter-1,xt-converter-2,xt-converter-3,xt-converter-4,xt-converter-5,xt-converter-6,xt-converter-7
COPY --from=build /app /app
USER node
EXPOSE 3000
CMD ["node", "apps/api/dist/main.js"]
