"""One source for page and fragment: render a whole template, or just one of its blocks for htmx."""

from __future__ import annotations

from flask import current_app, request


def is_htmx() -> bool:
    """True when htmx sent the request (it then wants a fragment, not the layout)."""
    return request.headers.get("HX-Request") == "true" and request.headers.get("HX-History-Restore-Request") != "true"


def render_block(template_name: str, block: str, **context) -> str:
    """Render one named block of a page template with the same context the page gets."""
    env = current_app.jinja_env
    template = env.get_or_select_template(template_name)
    current_app.update_template_context(context)
    ctx = template.new_context(context)
    return "".join(template.blocks[block](ctx))

