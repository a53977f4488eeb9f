package io.gpumeter.mcp.resources;

import io.gpumeter.common.problem.Problem;
import io.gpumeter.mcp.auth.McpCaller;
import io.gpumeter.mcp.reads.ServiceAnswer;
import io.gpumeter.mcp.reads.ServiceReads;
import io.gpumeter.mcp.tools.ArgKind;
import io.gpumeter.mcp.tools.Arguments;
import io.gpumeter.mcp.tools.BadArgument;
import io.gpumeter.mcp.tools.ReadTarget;
import io.gpumeter.mcp.tools.ReadTool;
import io.gpumeter.mcp.tools.ToolArg;
import io.gpumeter.mcp.tools.ToolCalls;
import io.quarkiverse.mcp.server.JsonRpcErrorCodes;
import io.quarkiverse.mcp.server.McpException;
import io.quarkiverse.mcp.server.ResourceResponse;
import io.quarkiverse.mcp.server.ResourceTemplateManager;
import io.quarkiverse.mcp.server.TextResourceContents;
import io.quarkus.runtime.Startup;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Registers the resource templates and reads one: its variable checked, the REST read made on the caller's behalf as
 * a tool's is, the document returned whole. A refusal is a JSON-RPC error in words (the MCP way for resources).
 */
@Startup
@ApplicationScoped
public class ResourceReads {

    private final ResourceTemplateManager templates;
    private final ServiceReads reads;
    private final ToolCalls calls;

    public ResourceReads(ResourceTemplateManager templates, ServiceReads reads, ToolCalls calls) {
        this.templates = templates;
        this.reads = reads;
        this.calls = calls;
    }

    @PostConstruct
    void register() {
        for (ReadResource resource : ResourceCatalogue.RESOURCES) {
            templates.newResourceTemplate(resource.name()).setTitle(resource.title())
                    .setDescription(resource.description()).setUriTemplate(resource.uriTemplate())
                    .setMimeType(resource.mimeType())
                    .setHandler(args -> read(resource, args.args(), args.requestUri().value()))
                    .register();
        }
    }

    ResourceResponse read(ReadResource resource, Map<String, String> vars, String uri) {
        McpCaller caller = calls.caller().orElse(null);
        if (caller == null || !caller.caller().mayCall("GET", resource.pathPattern())) {
            throw new McpException("The resource " + resource.name() + " is not open to this token.",
                    JsonRpcErrorCodes.SECURITY_ERROR);
        }
        String value;
        try {
            value = Arguments.read(asTool(resource), Map.of(resource.var(),
                    vars.getOrDefault(resource.var(), ""))).get(resource.var());
        } catch (BadArgument e) {
            throw new McpException(e.text(), JsonRpcErrorCodes.INVALID_PARAMS);
        }
        String path = resource.path().replace("{" + resource.var() + "}",
                ReadTarget.encode(value));
        ServiceAnswer answer;
        try {
            answer = reads.get(resource.backend(), path, 0, caller, resource.mimeType() + ", application/problem+json");
        } catch (ServiceReads.Unavailable e) {
            throw new McpException(e.getMessage(), JsonRpcErrorCodes.INTERNAL_ERROR);
        }
        if (answer.status() / 100 != 2) {
            String detail = Problem.parse(answer.body()).map(Problem::detail).orElse(null);
            int code = answer.status() == 404 ? JsonRpcErrorCodes.RESOURCE_NOT_FOUND
                    : answer.status() == 403 ? JsonRpcErrorCodes.SECURITY_ERROR : JsonRpcErrorCodes.INVALID_PARAMS;
            throw new McpException(detail != null && answer.status() < 500 ? detail
                    : resource.backend().id() + "-service could not answer (status " + answer.status() + ").", code);
        }
        return new ResourceResponse(List.of(new TextResourceContents(uri, answer.body(), resource.mimeType())));
    }

    /** The template's variable, checked by the tools' argument rules. */
    private static ReadTool asTool(ReadResource resource) {
        return new ReadTool(resource.name(), resource.title(), resource.description(), resource.backend(),
                resource.path(), List.of(new ToolArg(resource.var(), resource.kind(), true,
                "the " + resource.var() + " in the resource's URI", List.of(), resource.kind() == ArgKind.NAME)),
                Optional.empty(), List.of());
    }
}
