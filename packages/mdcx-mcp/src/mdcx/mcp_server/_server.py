"""The MCP server: three read-only tools around a ``Service``.

Each tool parses its arguments, calls the service and sends the reply twice
over, as the protocol asks: as structured content (validated against the
published output schema) and as the same compact JSON in a text block.  An
``MdcxError`` becomes a tool error whose text is the library's one-line
message; a question that finds nothing is a normal reply with its reason.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Annotated, Any, Literal

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from mdcx.format import MdcxError
from pydantic import Field, ValidationError

from ._replies import dumps
from ._schemas import DocumentPage, InfoReply, SearchReply
from ._service import MAX_LIMIT, Service
from ._version import __version__

SEARCH = """Search the document collection for passages that answer a question.
Returns documents best first, each with its package, portable path (document), pages and short passages with ids: cite package, document and page.
An empty list, or answerable=false with a warning, means the collection holds no answer: say so rather than guess from the nearest passages.
unknown_terms lists the question's words the collection never uses: rephrase in its vocabulary and language.
For more documents, call again with the same question and cursor=next_cursor."""

DOCUMENT = """Read a whole document or attachment, by the portable path search returns (@/folder/file.md), a relative path, a file name or a title.
Long documents come in pages: call again with offset=next_offset to read on.
Give package when several packages hold the same name."""

INFO = """Describe the packages this server answers from: document and passage counts, language, dates covered, calibration, conversion fidelity, signature, and whether each is open and how much memory it holds.
With list_documents=true, also list documents and attachments (attachments are never returned by search); page with cursor=next_cursor."""

READ_ONLY = {
    "read_only_hint": True,
    "destructive_hint": False,
    "idempotent_hint": True,
    "open_world_hint": False,
}

Question = Annotated[str, Field(description="the question, in words the documents would use")]
Limit = Annotated[int, Field(ge=1, le=MAX_LIMIT, description="documents per reply")]
Cursor = Annotated[str | None, Field(description="next_cursor of the previous reply, to continue it")]
Mode = Annotated[
    Literal["auto", "lexical", "semantic"],
    Field(description="auto: every engine the packages support; lexical: words; semantic: meaning"),
]
Only = Annotated[Literal["received", "sent"] | None, Field(description="correspondence only: one side of it")]
Prefer = Annotated[
    Literal["recent"] | None, Field(description="recent: among equally good results, newer first")
]
Name = Annotated[
    str, Field(description="portable path (@/folder/file.md), relative path, file name or title")
]
PackageName = Annotated[str | None, Field(description="file name of the package, when several hold the name")]
Offset = Annotated[
    int, Field(ge=0, description="character offset to read from: next_offset of the previous page")
]


ERROR_CHARS = 1_000  # a tool error's text; the library's messages are far shorter


def _reply(data: dict) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=dumps(data))], structured_content=data)


def _call(work: Callable[[], dict]) -> CallToolResult:
    try:
        return _reply(work())
    except MdcxError as exc:
        raise ToolError(_one_line(str(exc))) from None


def _one_line(message: str) -> str:
    """The first line of a message, cut to ``ERROR_CHARS``: a caller's long input never fills a reply."""
    first = message.strip().splitlines()[0] if message.strip() else "failed"
    return first if len(first) <= ERROR_CHARS else first[:ERROR_CHARS] + " …"


def _invalid(exc: ValidationError) -> str:
    """Arguments that do not fit a tool's schema, in one line: each field and what it needs, not the values."""
    problems = []
    for error in exc.errors()[:5]:
        field = ".".join(str(part) for part in error["loc"]) or "arguments"
        message = error["msg"]
        problems.append(f"{field}: {message[:1].lower()}{message[1:]}")
    return _one_line("invalid arguments: " + "; ".join(problems))


class _Server(MCPServer):
    """``MCPServer`` whose argument errors are one line (the SDK sends pydantic's multi-line report)."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(exc, UnexpectedToolError) or not isinstance(cause, ValidationError):
                raise
            raise ToolError(f"Error executing tool {name}: {_invalid(cause)}") from cause


def _instructions(service: Service) -> str:
    described = []
    for name, header in zip(service.names, service.corpus.headers):
        f = header.fields
        language = f.get("language")
        described.append(
            f"{name} ({f.get('documents', '?')} documents" + (f", {language}" if language else "") + ")"
        )
    shown = ", ".join(described[:10]) + (f" and {len(described) - 10} more" if len(described) > 10 else "")
    return (
        f"Answers questions from a document collection in {len(described)} mdcx package(s): {shown}. "
        "Use search to find passages and cite their package, document and page; document to read one whole; "
        "info for what the packages hold. When search says nothing here answers, say so."
    )


def create_server(service: Service) -> MCPServer:
    """An MCP server answering from ``service``; its life (idle watch, closing) is the server's lifespan."""

    @asynccontextmanager
    async def lifespan(_server: MCPServer) -> AsyncIterator[None]:
        service.start()
        try:
            yield None
        finally:
            service.close()

    server = _Server(
        "mdcx",
        title="mdcx document collection",
        version=__version__,
        instructions=_instructions(service),
        lifespan=lifespan,
        log_level="WARNING",
    )

    @server.tool(
        name="search",
        title="Search the collection",
        description=SEARCH,
        annotations=ToolAnnotations(title="Search the collection", **READ_ONLY),
    )
    def search(
        question: Question,
        limit: Limit = 5,
        cursor: Cursor = None,
        mode: Mode = "auto",
        only: Only = None,
        prefer: Prefer = None,
    ) -> Annotated[CallToolResult, SearchReply]:
        return _call(
            lambda: service.search(question, limit=limit, cursor=cursor, mode=mode, only=only, prefer=prefer)
        )

    @server.tool(
        name="document",
        title="Read a document",
        description=DOCUMENT,
        annotations=ToolAnnotations(title="Read a document", **READ_ONLY),
    )
    def document(
        name: Name, package: PackageName = None, offset: Offset = 0
    ) -> Annotated[CallToolResult, DocumentPage]:
        return _call(lambda: service.document(name, package=package, offset=offset))

    @server.tool(
        name="info",
        title="Describe the packages",
        description=INFO,
        annotations=ToolAnnotations(title="Describe the packages", **READ_ONLY),
    )
    def info(
        package: Annotated[str | None, Field(description="only this package (file name)")] = None,
        list_documents: Annotated[
            bool, Field(description="also list documents and attachments (opens the packages)")
        ] = False,
        cursor: Cursor = None,
    ) -> Annotated[CallToolResult, InfoReply]:
        return _call(lambda: service.info(package=package, list_documents=list_documents, cursor=cursor))

    return server
