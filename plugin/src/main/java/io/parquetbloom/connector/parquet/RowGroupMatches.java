package io.parquetbloom.connector.parquet;

/**
 * What reading has shown so far about whether the row groups a query reads hold a row it wants: a row group read
 * key column first that turned out to match paid two dependent GETs where one would have done, so once most do,
 * {@link S3ParquetDataSource} fetches the rest of the next row groups alongside their key chunks.
 */
public interface RowGroupMatches
{
    RowGroupMatches NONE = new RowGroupMatches()
    {
        @Override
        public boolean mostMatch()
        {
            return false;
        }

        @Override
        public void record(boolean matched) {}
    };

    /**
     * Whether enough row groups read key first have been seen, and most of them matched.
     */
    boolean mostMatch();

    /**
     * One row group read key column first: whether the reader then wanted its other columns.
     */
    void record(boolean matched);
}
