package io.parquetbloom.connector.parquet;

import io.trino.parquet.predicate.TupleDomainParquetPredicate;
import io.trino.spi.predicate.TupleDomain;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.filter2.predicate.Operators;
import org.apache.parquet.filter2.predicate.Statistics;
import org.apache.parquet.filter2.predicate.UserDefinedPredicate;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.io.api.Binary;
import org.joda.time.DateTimeZone;

import java.io.Serializable;
import java.util.List;
import java.util.Optional;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * The predicate trino-parquet evaluates against a row group's column index store to choose the rows it reads: one term
 * per column read, each answered by {@link SelectedPages} with that column's selected pages. It never filters a value
 * itself (the engine does); only the pages it selects matter.
 */
final class PageSelectionPredicate
        extends TupleDomainParquetPredicate
{
    private final List<ColumnPath> columns;

    PageSelectionPredicate(List<ColumnPath> columns)
    {
        super(TupleDomain.all(), List.of(), DateTimeZone.UTC);
        checkArgument(!columns.isEmpty(), "no columns");
        this.columns = List.copyOf(columns);
    }

    @Override
    public Optional<FilterPredicate> toParquetFilter(DateTimeZone timeZone)
    {
        FilterPredicate filter = null;
        for (ColumnPath column : columns) {
            FilterPredicate term = FilterApi.userDefined(new PathColumn(column), new SelectedPagesOnly());
            filter = filter == null ? term : FilterApi.and(filter, term);
        }
        return Optional.of(filter);
    }

    /**
     * A column by its path as the file spells it (a dotted name stays one element).
     */
    private static final class PathColumn
            extends Operators.Column<Binary>
    {
        PathColumn(ColumnPath path)
        {
            super(path, Binary.class);
        }
    }

    /**
     * Stands for "the selected pages": no page or value is ever dropped by the predicate itself.
     */
    private static final class SelectedPagesOnly
            extends UserDefinedPredicate<Binary>
            implements Serializable
    {
        @Override
        public boolean keep(Binary value)
        {
            return true;
        }

        @Override
        public boolean canDrop(Statistics<Binary> statistics)
        {
            return false;
        }

        @Override
        public boolean inverseCanDrop(Statistics<Binary> statistics)
        {
            return false;
        }

        @Override
        public boolean acceptsNullValue()
        {
            return true;
        }
    }
}
