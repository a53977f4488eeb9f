package io.gpumeter.mcp.tools;

import io.gpumeter.common.problem.Problem;
import io.gpumeter.mcp.auth.McpCaller;
import io.gpumeter.mcp.config.McpConfig;
import io.gpumeter.mcp.reads.ServiceAnswer;
import io.gpumeter.mcp.reads.ServiceReads;
import io.quarkiverse.mcp.server.ToolManager;
import io.quarkiverse.mcp.server.ToolResponse;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.util.Map;
import java.util.Optional;

/**
 * Runs one tool call: the caller the gate verified, the tool open to it, its arguments checked, the REST read made
 * on the caller's behalf, and the answer cut to fit. Every refusal is a tool error in words, naming the argument
 * when one was wrong.
 */
@ApplicationScoped
public class ToolCalls {

    private static final Logger LOG = Logger.getLogger(ToolCalls.class);

    private final ServiceReads reads;
    private final CurrentVertxRequest request;
    private final McpConfig config;

    public ToolCalls(ServiceReads reads, CurrentVertxRequest request, McpConfig config) {
        this.reads = reads;
        this.request = request;
        this.config = config;
    }

    /** The caller of the request being served; empty outside a request the gate let through. */
    public Optional<McpCaller> caller() {
        return Optional.ofNullable(request.getCurrent()).map(ctx -> (McpCaller) ctx.get(McpCaller.KEY));
    }

    public ToolResponse call(ReadTool tool, ToolManager.ToolArguments arguments) {
        McpCaller caller = caller().orElse(null);
        if (!ToolAccess.open(tool, caller)) {
            return ToolResponse.error("The tool " + tool.name() + " is not open to this token: it answers from a "
                    + "fleet-wide read.");
        }
        try {
            Map<String, String> args = Arguments.read(tool, arguments.args());
            String target = ReadTarget.of(tool, args, caller);
            int cap = Math.max(1, config.rows());
            ServiceAnswer answer = reads.get(tool.backend(), target, tool.pagedList() ? cap : 0, caller,
                    "application/json");
            if (answer.status() / 100 != 2) {
                return ToolResponse.error(refusal(tool, answer));
            }
            return ToolResponse.success(ToolAnswers.shape(tool, args, answer, cap));
        } catch (BadArgument e) {
            return ToolResponse.error(e.text());
        } catch (ServiceReads.Unavailable e) {
            return ToolResponse.error(e.getMessage());
        } catch (IllegalStateException e) {
            LOG.warnf("%s: %s", tool.name(), e.getMessage());
            return ToolResponse.error(tool.backend().id() + "-service answered something other than JSON.");
        }
    }

    /** A service's refusal in words: an argument it named, or its own detail; never its internals. */
    static String refusal(ReadTool tool, ServiceAnswer answer) {
        Optional<Problem> problem = Problem.parse(answer.body());
        String detail = problem.map(Problem::detail).orElse(null);
        String field = problem.map(Problem::field).orElse(null);
        int status = answer.status();
        if (status >= 500 || detail == null) {
            return tool.backend().id() + "-service could not answer (status " + status + "); try again later.";
        }
        if (status == 400 && field != null && tool.arg(field).isPresent()) {
            return new BadArgument(field, detail).text();
        }
        if (status == 403) {
            return "Not open to this token: " + detail;
        }
        return detail;
    }
}
