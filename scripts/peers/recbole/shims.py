"""Compatibility shims that let RecBole 1.2.1 (2025) run on the numpy, pandas
and torch PyPI serves now. Each one names what it fixes; importing this module
applies them."""

import numpy as np

# NumPy 2 removed the aliases np.float_, np.complex_ and np.unicode_, which
# RecBole's Config.compatibility_settings reads (to restore np.float & co.).
# Give them back as the types they stood for.
for _alias, _type in (("float_", np.float64), ("complex_", np.complex128), ("unicode_", np.str_)):
    if _alias not in np.__dict__:
        setattr(np, _alias, _type)

# pandas 3 always copies on write, so Dataset._fill_nan's
# `feat[field].fillna(value, inplace=True)` fills a copy and leaves the NaN
# in place (pandas warns "ChainedAssignmentError"). The same imputation,
# assigned back to the frame.
from recbole.data.dataset import dataset as _ds  # noqa: E402
from recbole.utils import FeatureType  # noqa: E402


def _fill_nan(self):
    for feat_name in self.feat_name_list:
        feat = getattr(self, feat_name)
        for field in feat:
            ftype = self.field2type[field]
            if ftype == FeatureType.TOKEN:
                feat[field] = feat[field].fillna(value=0)
            elif ftype == FeatureType.FLOAT:
                feat[field] = feat[field].fillna(value=feat[field].mean())
            else:
                dtype = np.int64 if ftype == FeatureType.TOKEN_SEQ else np.float64
                feat[field] = feat[field].apply(lambda x: np.array([], dtype=dtype) if isinstance(x, float) else x)


_ds.Dataset._fill_nan = _fill_nan

# SciPy 1.13 made dok_matrix a wrapper around a dict (._dict) and dropped the
# private dok_matrix._update that LightGCN (and NGCF, SpectralCF...) call to
# fill the adjacency matrix in one go. The same bulk update.
import scipy.sparse as _sp  # noqa: E402

if not hasattr(_sp.dok_matrix, "_update"):
    def _dok_update(self, data):
        self._dict.update(data)

    _sp.dok_matrix._update = _dok_update

# pandas 3 applies Series.agg(func) to the whole Series when func accepts it,
# so RecBole's `feat[field].agg(len)` (the length of every token sequence,
# used to split remapped ids back into sequences) became one number. The
# element-wise lengths it meant.
import pandas as _pd  # noqa: E402

_agg = _pd.Series.agg


def _series_agg(self, func=None, *args, **kwargs):
    if func is len:
        return self.map(len)
    return _agg(self, func, *args, **kwargs)


_pd.Series.agg = _pd.Series.aggregate = _series_agg
