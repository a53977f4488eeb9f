package io.gpumeter.mcp.resources;

import io.gpumeter.mcp.tools.ArgKind;
import io.gpumeter.mcp.tools.Backend;

/**
 * One MCP resource template: a document a REST read serves whole (a CSV, a Markdown verdict), its one variable
 * checked as a tool argument is, and read with the caller's rights as the tools are.
 *
 * @param path     the read's path and fixed query; {@code {var}} is filled with the variable, percent-encoded
 */
public record ReadResource(String name, String title, String description, String uriTemplate, String mimeType,
                           Backend backend, String path, String var, ArgKind kind) {

    /** The path with its variable as a plain segment, as the access table matches it. */
    public String pathPattern() {
        String bare = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
        return bare.replaceAll("\\{[^}]+}", "x");
    }
}
