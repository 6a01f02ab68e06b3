package io.parquetbloom.testing;

import io.trino.dispatcher.DispatchManager;
import io.trino.server.BasicQueryInfo;
import io.trino.testing.DistributedQueryRunner;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Queries running on a test cluster's coordinator.
 */
public final class RunningQueries
{
    private RunningQueries() {}

    /**
     * Cancels the one running query whose text holds {@code sqlPart}, as a user cancelling it does.
     */
    public static void cancelTheOne(DistributedQueryRunner runner, String sqlPart)
    {
        DispatchManager dispatch = runner.getCoordinator().getDispatchManager();
        List<BasicQueryInfo> running = dispatch.getQueries().stream()
                .filter(query -> query.getQuery().contains(sqlPart) && !query.getState().isDone())
                .toList();
        assertThat(running).hasSize(1);
        dispatch.cancelQuery(running.getFirst().getQueryId());
    }
}
