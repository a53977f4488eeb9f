package io.gpumeter.launcher.cli;

import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.consumer.JwtConsumerBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TokenCommandTest {

    @TempDir
    Path state;

    private Run run(String line) {
        return Run.of(Run.concat(Run.concat(new String[] {"token"}, Run.words(line)), "--state-dir", state.toString()));
    }

    private JwtClaims token(String line) throws Exception {
        Run run = run(line);
        assertEquals(0, run.exitCode(), run.toString());
        return new JwtConsumerBuilder().setSkipSignatureVerification().setSkipDefaultAudienceValidation().build()
                .processToClaims(run.out().strip());
    }

    @Test
    void aServiceTokenNamesTheServicesItCallsAndLivesAtMostThirtyDays() throws Exception {
        JwtClaims claims = token("--groups service --audience ledger,slo-service --ttl P30D --subject collector");
        assertEquals(List.of("ledger", "slo"), claims.getAudience());
        assertEquals(List.of("service"), claims.getStringListClaimValue("groups"));
        assertEquals("collector", claims.getSubject());
        assertEquals(30L * 86_400, claims.getExpirationTime().getValue() - claims.getIssuedAt().getValue());
    }

    @Test
    void peoplesAndIngestTokensCarryNoAudience() throws Exception {
        JwtClaims ingest = token("--groups ingest --subject node-pushers --ttl P7D");
        assertEquals(List.of("ingest"), ingest.getStringListClaimValue("groups"));
        assertTrue(ingest.getAudience().isEmpty());
        JwtClaims reader = token("--groups reader");
        assertEquals(24L * 3600, reader.getExpirationTime().getValue() - reader.getIssuedAt().getValue());
        assertEquals("cli", reader.getSubject());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "one role                    | --groups admin                                | admin",
            "several, spaced             | --groups=reader,tenant:acme                   | reader tenant:acme",
            "empty items dropped         | --groups tenant:acme,,operator                | tenant:acme operator",
            "script's --build ignored    | --groups operator --build                     | operator",
    })
    void readsGroups(String name, String line, String groups) throws Exception {
        assertEquals(List.of(Run.words(groups)), token(line).getStringListClaimValue("groups"));
    }

    @Test
    void withConsoleItPrintsASignInLinkCarryingTheTokenInItsFragment() throws Exception {
        Run local = run("--groups tenant:acme --console");
        assertEquals(0, local.exitCode(), local.toString());
        String link = local.out().strip();
        assertTrue(link.startsWith("http://127.0.0.1:8086/signin#token="), link);
        JwtClaims claims = new JwtConsumerBuilder().setSkipSignatureVerification().setSkipDefaultAudienceValidation().build()
                .processToClaims(link.substring(link.indexOf("#token=") + 7));
        assertEquals(List.of("tenant:acme"), claims.getStringListClaimValue("groups"));

        Run elsewhere = run("--groups reader --console=https://gpumeter.example.org:9443/");
        assertEquals(0, elsewhere.exitCode(), elsewhere.toString());
        assertTrue(elsewhere.out().strip().startsWith("https://gpumeter.example.org:9443/signin#token=ey"), elsewhere.out());

        Run wrong = run("--groups reader --console=ftp://host");
        assertEquals(2, wrong.exitCode(), wrong.toString());
        assertTrue(wrong.err().contains("--console must be the console's http(s) address"), wrong.err());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "no groups                   | --ttl PT1H                                    | Missing required option: '--groups",
            "groups naming nothing       | --groups ,                                    | --groups names no group",
            "a ttl above the cap         | --groups admin --ttl P31D                     | at most P30D",
            "a year-long service token   | --groups service --audience ledger --ttl P365D | at most P30D",
            "a ttl that is no duration   | --groups admin --ttl 24h                      | Invalid value for option '--ttl': must be an ISO-8601 duration",
            "a ttl under a minute        | --groups admin --ttl PT30S                    | must be at least one minute",
            "a service token for nobody  | --groups service                              | needs --audience",
            "an unknown audience         | --groups service --audience ledger,bank        | --audience: service must be one of",
            "an audience on a person     | --groups reader --audience ledger              | --audience is for service tokens",
            "ingest mixed with a role    | --groups ingest,reader                        | ingest stands alone",
            "an unknown group            | --groups root                                 | unknown group 'root'",
            "an empty tenant             | --groups tenant:                              | unknown group 'tenant:'",
            "an unknown option           | --groups admin --role x                       | unknown option '--role'",
            "a stray word                | --groups admin now                            | unexpected argument 'now'",
    })
    void refuses(String name, String line, String message) {
        Run run = run(line);
        assertEquals(2, run.exitCode(), run.toString());
        assertTrue(run.err().startsWith("gpumeter token: "), run.toString());
        assertTrue(run.err().contains(message), run.toString());
        assertTrue(run.err().strip().endsWith("See './gpumeter token --help'."), run.toString());
        assertEquals("", run.out());
    }
}
