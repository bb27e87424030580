# The judge's own image: the mail judge and the GM dashboard (`judge serve`), dependencies
# installed once at build time.  Build: docker build -t postal-judge .
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

RUN useradd --create-home --uid 1000 judge
WORKDIR /app

# Dependencies first (a layer that changes only with pyproject.toml), then the source.
COPY pyproject.toml README.md ./
RUN mkdir -p app && touch app/__init__.py \
    && pip install . \
    && pip uninstall -y postal-judge \
    && rm -rf app build *.egg-info

COPY alembic.ini ./
COPY migrations ./migrations
COPY variants ./variants
COPY templates ./templates
COPY app ./app
# Editable: the judge reads templates/, variants/ and migrations/ beside its package.
RUN pip install --no-deps -e . && mkdir -p /app/var && chown -R judge /app/var

USER judge
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD python -c "import urllib.request,sys; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4).status == 200 else 1)"
CMD ["sh", "-c", "judge db upgrade && judge serve"]
