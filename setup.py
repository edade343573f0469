"""Packages and package data (everything else is in pyproject.toml).

The repository keeps the web pages and the migrations at its top level (`clients/web/`,
`migrations/`); the wheel carries them inside the package as `hub/web/` and `hub/migrations/`,
where an installed hub finds them (hub/ops/resources.py). A checkout (an editable install, or
PYTHONPATH) finds them beside the `hub` package instead. Python packages are found, not listed,
so a new subpackage of `hub` is in the wheel without a change here.
"""

from setuptools import find_packages, setup

# package -> its directory in the repository, for the parts that do not live under hub/
MAPPED = {
    "hub.web": "clients/web",
    "hub.migrations": "migrations",
    "cuehub_client": "clients/python/cuehub_client",
}
WEB_FILES = ["*.html", "**/*.js", "**/*.mjs", "**/*.css", "**/*.svg", "**/*.png", "**/*.ico",
             "**/*.webmanifest", "**/*.json", "**/*.woff2", "**/*.txt"]

setup(
    packages=[*find_packages(include=["hub", "hub.*"]), *MAPPED],
    package_dir=MAPPED,
    package_data={
        "hub": ["py.typed", "api/docs_assets/*"],
        "hub.web": WEB_FILES,
        "hub.migrations": ["*.py", "*.mako", "versions/*.py"],
        "cuehub_client": ["py.typed"],
    },
    exclude_package_data={"hub.web": ["**/node_modules/**"]},
    # Only what package_data names (MANIFEST.in grafts more into the sdist: tests, deploy, bench).
    include_package_data=False,
)
