# GPU Advisor, HTTP mode (`python -m bot serve` behind gunicorn), as an unprivileged user.
#   docker build -t gpu-advisor .
#   docker run --rm -p 127.0.0.1:3000:3000 -e SLACK_SIGNING_SECRET=… -e SLACK_BOT_TOKEN=xoxb-… gpu-advisor
# For Socket Mode run the same image with `python -m bot socket` and SLACK_APP_TOKEN instead (see compose.yaml).

# Build the project's own wheel apart, so the final image holds no source tree and no build tools.
FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY knowledge ./knowledge
COPY rules ./rules
RUN pip wheel --no-cache-dir --no-deps --wheel-dir /wheels .

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PORT=3000
WORKDIR /app
# The lock first: its layer is reused until requirements.txt changes.
COPY requirements.txt ./
RUN pip install --no-cache-dir --requirement requirements.txt
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir --no-deps /wheels/*.whl && rm -rf /wheels
# gunicorn reads ./gunicorn.conf.py from the directory it starts in.
COPY gunicorn.conf.py ./
# A fixed numeric uid, so an orchestrator's runAsNonRoot can verify it without reading /etc/passwd.
RUN useradd --system --uid 10001 --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin advisor
USER 10001:10001
EXPOSE 3000
# python's urllib instead of curl: the slim image has no curl and needs none. Fails on any non-2xx answer.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ.get('PORT', '3000') + '/healthz', timeout=4)"]
# The Procfile's web command.
CMD ["python", "-m", "bot", "serve"]
