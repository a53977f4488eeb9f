package io.gpumeter.console;

/**
 * The ledger's {@code GET /api/v1/volcano-jobs} as the stand-in answers it, shaped as VolcanoJobReport.Group
 * serialises. For fleet tokens two queues: research, 3 jobs finished (2 Completed, 1 Failed after 2 retries), 13.55
 * GPU-hours (4.516667 per job, 6.775 per completed one), queueing p95 3 h, of which it lists 2 (the page asks for 10
 * a queue; the stand-in lists fewer, as a ledger asked for fewer would); and vision, 1 Aborted job of umbrella whose
 * name is markup. A tenant token gets acme's jobs only: research with its one failed job.
 */
final class VolcanoJobsStandIn {

    private static final String FAILED = """
            {"cluster":"lab","namespace":"acme-ml","name":"bert-ft","uid":"vj-2","queue":"research","tenant":"acme",
             "state":"Failed","reason":"PodFailed","createdAt":"2026-11-28T06:00:00Z","runningAt":"2026-11-28T06:30:00Z",
             "finishedAt":"2026-11-28T08:10:00Z","waitSeconds":1800,"retries":2,"pods":3,"gpuHours":1.55}""";

    static final String FLEET = """
            [{"groupBy":"queue","key":"research","finished":3,"states":{"Completed":2,"Failed":1},"successRate":0.666667,
              "gpuHours":13.55,"gpuHoursPerJob":4.516667,"gpuHoursPerCompletedJob":6.775,"retries":2,"retriedJobs":1,
              "queueing":{"jobs":3,"p50Seconds":1800,"p95Seconds":10800,"maxSeconds":10800,"longestJob":"globex-lab/eval-c"},
              "jobs":[
               {"cluster":"lab","namespace":"globex-lab","name":"eval-c","uid":"vj-3","queue":"research","tenant":"globex",
                "state":"Completed","reason":null,"createdAt":"2026-11-29T09:00:00Z","runningAt":"2026-11-29T12:00:00Z",
                "finishedAt":"2026-11-29T13:00:00Z","waitSeconds":10800,"retries":0,"pods":1,"gpuHours":1},
               """ + FAILED + """
            ]},
             {"groupBy":"queue","key":"vision","finished":1,"states":{"Aborted":1},"successRate":0,"gpuHours":0,
              "gpuHoursPerJob":0,"gpuHoursPerCompletedJob":null,"retries":0,"retriedJobs":0,
              "queueing":{"jobs":0,"p50Seconds":null,"p95Seconds":null,"maxSeconds":null,"longestJob":null},
              "jobs":[
               {"cluster":"lab","namespace":"umbrella-cv","name":"<img src=x onerror=alert(1)>","uid":"vj-4","queue":"vision",
                "tenant":"umbrella","state":"Aborted","reason":"AbortJob","createdAt":"2026-11-27T15:00:00Z","runningAt":null,
                "finishedAt":"2026-11-27T15:30:00Z","waitSeconds":null,"retries":0,"pods":0,"gpuHours":0}]}]""";

    static final String ACME = """
            [{"groupBy":"queue","key":"research","finished":1,"states":{"Failed":1},"successRate":0,"gpuHours":1.55,
              "gpuHoursPerJob":1.55,"gpuHoursPerCompletedJob":null,"retries":2,"retriedJobs":1,
              "queueing":{"jobs":1,"p50Seconds":1800,"p95Seconds":1800,"maxSeconds":1800,"longestJob":"acme-ml/bert-ft"},
              "jobs":[""" + FAILED + "]}]";

    private VolcanoJobsStandIn() {
    }

    static void install() {
        StandIn.reply(Backend.LEDGER, "/api/v1/volcano-jobs", false, StandIn.Reply.json(FLEET));
        StandIn.reply(Backend.LEDGER, "/api/v1/volcano-jobs", true, StandIn.Reply.json(ACME));
    }
}
