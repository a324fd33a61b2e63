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
# text in pages and scans rasterises.
RUN apt-get update && apt-get install -y --no-install-recommends chromium fonts-dejavu-core ca-certificates \
  libreoffice-writer-nogui libreoffice-impress-nogui libreoffice-calc-nogui \
  fonts-liberation2 fonts-crosextra-carlito fonts-crosextra-caladea \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app /app
USER node
EXPOSE 3000
CMD ["node", "apps/api/dist/main.js"]
