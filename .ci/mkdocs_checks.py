"""MkDocs hooks (mkdocs.yml `hooks:`): checks MkDocs 1.4 does not make itself, logged as warnings so that
`mkdocs build --strict` fails on them:

* a page of docs/ that the nav leaves out (a reader could not reach it);
* a link to a heading that does not exist (`page.md#no-such-heading`, or `#no-such-heading` on the page);
* a link of the repository's README.md to a file that does not exist, or to a heading a page does not have.
"""

import logging
import os
import posixpath
import re
from html.parser import HTMLParser
from urllib.parse import urlsplit, unquote

log = logging.getLogger("mkdocs.hooks.planvm")

_ids = {}  # page url -> set of element ids
_links = []  # (page src path, page url, href)


class _Collector(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids = set()
        self.hrefs = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name == "id" and value:
                self.ids.add(value)
            if tag == "a" and name == "href" and value:
                self.hrefs.append(value)


def on_nav(nav, config, files, **kwargs):
    in_nav = {page.file.src_path for page in nav.pages}
    for file in files.documentation_pages():
        if file.src_path not in in_nav:
            log.warning(
                "docs/%s is not in the nav of mkdocs.yml: add it there, so that a reader can reach it", file.src_path)
    return nav


def on_page_content(html, page, config, files, **kwargs):
    collector = _Collector()
    collector.feed(html)
    _ids[page.url] = collector.ids
    for href in collector.hrefs:
        _links.append((page.file.src_path, page.url, href))
    return html


def on_post_build(config, **kwargs):
    for src, url, href in _links:
        parts = urlsplit(href)
        if parts.scheme or parts.netloc or not parts.fragment:
            continue
        if parts.path:
            path = posixpath.normpath(posixpath.join("/" + url, parts.path))
            target = "" if path == "/" else path.lstrip("/") + "/"
        else:
            target = url
        anchors = _ids.get(target)
        if anchors is None:
            continue  # not a page of the site (MkDocs itself reports links to missing pages)
        if unquote(parts.fragment) not in anchors:
            log.warning("docs/%s links to '%s', but that page has no heading with the anchor '#%s'",
                        src, href, parts.fragment)
    _check_readme(config)


def _check_readme(config):
    root = os.path.dirname(config.config_file_path)
    docs = os.path.relpath(config.docs_dir, root)
    with open(os.path.join(root, "README.md"), encoding="utf-8") as readme:
        text = re.sub(r"```.*?```", "", readme.read(), flags=re.S)
    for href in re.findall(r"\]\(([^)\s]+)\)", text):
        parts = urlsplit(href)
        if parts.scheme or parts.netloc:
            continue
        path = posixpath.normpath(parts.path) if parts.path else "README.md"
        if not os.path.exists(os.path.join(root, path)):
            log.warning("README.md links to '%s', which does not exist", href)
            continue
        if not parts.fragment or not path.endswith(".md") or not path.startswith(docs + "/"):
            continue
        page = posixpath.relpath(path, docs)[: -len(".md")]
        url = "" if page == "index" else (page[: -len("index")] if page.endswith("/index") else page + "/")
        if parts.fragment not in _ids.get(url, set()):
            log.warning("README.md links to '%s', but that page has no heading with the anchor '#%s'", href,
                        parts.fragment)
