package io.gpumeter.e2e;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** An assistant connected to the suite's MCP server with the official SDK's client, and the REST reads to compare with. */
final class McpAssistant implements AutoCloseable {

    /** Exact decimals, so the tool's figures and the REST answer's compare to the last digit. */
    static final ObjectMapper JSON = JsonMapper.builder().nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final McpSyncClient client;

    private McpAssistant(McpSyncClient client) {
        this.client = client;
    }

    static McpAssistant connect(URI server, String token) {
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder(server.toString())
                .endpoint("/mcp").requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + token)).build();
        McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofMinutes(2)).build();
        client.initialize();
        return new McpAssistant(client);
    }

    McpSyncClient client() {
        return client;
    }

    List<String> toolNames() {
        return client.listTools().tools().stream().map(McpSchema.Tool::name).sorted().toList();
    }

    McpSchema.CallToolResult call(String tool, Map<String, Object> args) {
        return client.callTool(new McpSchema.CallToolRequest(tool, args));
    }

    /** A call's answer as JSON; the call must succeed. */
    JsonNode answer(String tool, Map<String, Object> args) {
        McpSchema.CallToolResult result = call(tool, args);
        if (Boolean.TRUE.equals(result.isError())) {
            throw new AssertionError(tool + " " + args + " failed: " + text(result));
        }
        return parse(text(result));
    }

    static String text(McpSchema.CallToolResult result) {
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }

    static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The REST read at {@code url} with {@code token}, as the caller's own token would read it. */
    static HttpResponse<String> rest(String url, String token) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofMinutes(2))
                    .header("Authorization", "Bearer " + token).GET().build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        client.closeGracefully();
    }
}
