package io.gpumeter.launcher.cli;

import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.consumer.JwtConsumerBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TokenCommandTest {

    @TempDir
    Path state;

    private JwtClaims token(String line) throws Exception {
        List<String> args = new ArrayList<>(Arrays.asList(line.split(" ")));
        args.addAll(List.of("--state-dir", state.toString()));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertEquals(0, TokenCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8)));
        String jwt = out.toString(StandardCharsets.UTF_8).strip();
        return new JwtConsumerBuilder().setSkipSignatureVerification().setSkipDefaultAudienceValidation().build()
                .processToClaims(jwt);
    }

    @Test
    void aServiceTokenNamesTheServicesItCallsAndLivesAtMostThirtyDays() throws Exception {
        JwtClaims claims = token("--groups service --audience ledger,slo-service --ttl P30D --subject collector");
        assertEquals(List.of("ledger", "slo"), claims.getAudience());
        assertEquals(List.of("service"), claims.getStringListClaimValue("groups"));
        assertEquals(30L * 86_400, claims.getExpirationTime().getValue() - claims.getIssuedAt().getValue());
    }

    @Test
    void peoplesAndIngestTokensCarryNoAudience() throws Exception {
        JwtClaims ingest = token("--groups ingest --subject node-pushers --ttl P7D");
        assertEquals(List.of("ingest"), ingest.getStringListClaimValue("groups"));
        assertTrue(ingest.getAudience().isEmpty());
        JwtClaims reader = token("--groups reader");
        assertEquals(24L * 3600, reader.getExpirationTime().getValue() - reader.getIssuedAt().getValue());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "a ttl above the cap         | --groups admin --ttl P31D                     | at most P30D",
            "a year-long service token   | --groups service --audience ledger --ttl P365D | at most P30D",
            "a service token for nobody  | --groups service                              | needs --audience",
            "an unknown audience         | --groups service --audience ledger,bank        | --audience: service must be one of",
            "an audience on a person     | --groups reader --audience ledger              | --audience is for service tokens",
            "ingest mixed with a role    | --groups ingest,reader                        | ingest stands alone",
            "an unknown group            | --groups root                                 | unknown group 'root'",
    })
    void refuses(String name, String line, String message) {
        List<String> args = new ArrayList<>(Arrays.asList(line.trim().split(" +")));
        args.addAll(List.of("--state-dir", state.toString()));
        UsageException e = assertThrows(UsageException.class, () -> TokenCommand.run(args, System.out));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }
}
