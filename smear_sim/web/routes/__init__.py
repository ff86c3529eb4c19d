"""The page's API by concern, each an APIRouter: the analyses, the practice table, the results folder."""
