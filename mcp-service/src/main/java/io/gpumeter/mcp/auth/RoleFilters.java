package io.gpumeter.mcp.auth;

import io.gpumeter.mcp.resources.ReadResource;
import io.gpumeter.mcp.resources.ResourceCatalogue;
import io.gpumeter.mcp.tools.ToolAccess;
import io.gpumeter.mcp.tools.ToolCalls;
import io.gpumeter.mcp.tools.ToolCatalogue;
import io.quarkiverse.mcp.server.FilterContext;
import io.quarkiverse.mcp.server.ResourceTemplateFilter;
import io.quarkiverse.mcp.server.ResourceTemplateManager;
import io.quarkiverse.mcp.server.ToolFilter;
import io.quarkiverse.mcp.server.ToolManager;
import jakarta.inject.Singleton;

/**
 * What a caller is shown: the tools and resource templates whose REST reads the access table opens to its roles, so
 * a tenant's assistant never sees a fleet-wide tool. The same check guards each call.
 */
@Singleton
public class RoleFilters implements ToolFilter, ResourceTemplateFilter {

    private final ToolCalls calls;

    public RoleFilters(ToolCalls calls) {
        this.calls = calls;
    }

    @Override
    public boolean test(ToolManager.ToolInfo tool, FilterContext context) {
        McpCaller caller = calls.caller().orElse(null);
        return ToolCatalogue.named(tool.name()).map(t -> ToolAccess.open(t, caller)).orElse(false);
    }

    @Override
    public boolean test(ResourceTemplateManager.ResourceTemplateInfo template, FilterContext context) {
        McpCaller caller = calls.caller().orElse(null);
        return caller != null && ResourceCatalogue.RESOURCES.stream().filter(r -> r.name().equals(template.name()))
                .map(ReadResource::pathPattern).anyMatch(path -> caller.caller().mayCall("GET", path));
    }
}
