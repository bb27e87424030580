# The judge's own image: the mail judge and the GM dashboard (`judge serve`), its dependencies
# installed and its engine compiled at build time.  Build: docker build -t postal-judge .
#
# Two stages.  `build` installs the dependencies in a virtualenv and compiles the engine with
# mypyc (C compiler and headers: scripts/system-deps.sh build).  The image copies the virtualenv
# and the compiled engine (app/_native) from it, and installs only what the judge needs to run
# (scripts/system-deps.sh runtime: the fonts of the map pictures): the same script, and the same
# list of Debian packages, as `make system-deps` on a host.
ARG PYTHON_IMAGE=python:3.11-slim-bookworm

FROM ${PYTHON_IMAGE} AS build

ENV PYTHONDONTWRITEBYTECODE=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PATH=/opt/venv/bin:$PATH
WORKDIR /app

COPY scripts/system-deps.sh ./scripts/
RUN bash scripts/system-deps.sh build && rm -rf /var/lib/apt/lists/*

# Dependencies first (a layer that changes only with pyproject.toml), then the source.
RUN python -m venv /opt/venv
COPY pyproject.toml README.md ./
RUN mkdir -p app && touch app/__init__.py \
    && pip install . \
    && pip uninstall -y postal-judge \
    && rm -rf app build *.egg-info
# mypyc and setuptools beside the virtualenv, never in it: the image does not carry the compiler.
RUN pip install --target /opt/mypyc "mypy>=1.10" "setuptools>=65"

COPY app ./app
COPY tools ./tools
# The compiled engine, checked: POSTAL_JUDGE_ENGINE=native refuses a missing or stale build.
RUN PYTHONPATH=/opt/mypyc python tools/build_engine.py --jobs 2 \
    && POSTAL_JUDGE_ENGINE=native python -c "import app.db, app.engine"


FROM ${PYTHON_IMAGE} AS runtime

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PATH=/opt/venv/bin:$PATH

COPY scripts/system-deps.sh /tmp/system-deps.sh
RUN bash /tmp/system-deps.sh runtime && rm -rf /var/lib/apt/lists/* /tmp/system-deps.sh

RUN useradd --create-home --uid 1000 judge
WORKDIR /app
COPY --from=build /opt/venv /opt/venv
COPY alembic.ini pyproject.toml README.md ./
COPY migrations ./migrations
COPY variants ./variants
COPY templates ./templates
COPY app ./app
# The engine compiled in the build stage from these same sources (the stamp checks it at import).
COPY --from=build /app/app/_native ./app/_native
# Editable: the judge reads templates/, variants/ and migrations/ beside its package.
RUN pip install --no-cache-dir --disable-pip-version-check --no-deps -e . \
    && mkdir -p /app/var && chown -R judge /app/var

USER judge
# The compiled engine or none: a stale or missing build stops the judge instead of running slow.
ENV POSTAL_JUDGE_ENGINE=native
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD python -c "import urllib.request,sys; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4).status == 200 else 1)"
CMD ["sh", "-c", "judge db upgrade && judge serve"]
