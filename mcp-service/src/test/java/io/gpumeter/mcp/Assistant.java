package io.gpumeter.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** An assistant's side of the conversation: the official SDK's client over Streamable HTTP, with one bearer token. */
final class Assistant implements AutoCloseable {

    /** Exact decimals, so a figure compares to the last digit. */
    static final ObjectMapper JSON = com.fasterxml.jackson.databind.json.JsonMapper.builder()
            .nodeFactory(com.fasterxml.jackson.databind.node.JsonNodeFactory.withExactBigDecimals(true))
            .enable(com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();

    private final McpSyncClient client;

    private Assistant(McpSyncClient client) {
        this.client = client;
    }

    /** Connected and initialized; {@code bearer} is the whole Authorization value. */
    static Assistant connect(String baseUrl, String bearer) {
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder(baseUrl)
                .endpoint("/mcp").requestBuilder(HttpRequest.newBuilder().header("Authorization", bearer)).build();
        McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(30)).build();
        client.initialize();
        return new Assistant(client);
    }

    List<String> toolNames() {
        return client.listTools().tools().stream().map(McpSchema.Tool::name).sorted().toList();
    }

    McpSchema.ListToolsResult tools() {
        return client.listTools();
    }

    McpSchema.CallToolResult call(String tool, Map<String, Object> args) {
        return client.callTool(new McpSchema.CallToolRequest(tool, args));
    }

    /** A successful call's answer, as JSON. */
    JsonNode answer(String tool, Map<String, Object> args) {
        McpSchema.CallToolResult result = call(tool, args);
        if (Boolean.TRUE.equals(result.isError())) {
            throw new AssertionError(tool + " failed: " + text(result));
        }
        try {
            return JSON.readTree(text(result));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String text(McpSchema.CallToolResult result) {
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }

    McpSyncClient client() {
        return client;
    }

    @Override
    public void close() {
        client.closeGracefully();
    }
}
