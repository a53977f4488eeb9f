package io.gpumeter.mcp.tools;

import io.gpumeter.mcp.auth.McpCaller;

/**
 * Who may list and call a tool: whoever the access table lets read the tool's REST path. One source of truth, so a
 * tenant never sees a fleet-wide tool, and the REST service would refuse the read anyway.
 */
public final class ToolAccess {

    private ToolAccess() {
    }

    public static boolean open(ReadTool tool, McpCaller caller) {
        return caller != null && caller.caller().mayCall("GET", tool.pathPattern());
    }
}
